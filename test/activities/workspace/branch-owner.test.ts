/**
 * 1 issue = 1 branch = 1 worktree = 1 agent, across agents: the agent that prepares an
 * issue's workspace first owns its branch and worktree; another agent is refused
 * (WORKTREE_OWNED) until the branch is handed over (the label pipeline's handOverBranch),
 * and never while the owner's run is live. Real git in temp dirs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AgentError } from '../../../src/contracts/errors.js';
import type { PrepareWorkspaceInput } from '../../../src/contracts/activities.js';
import { localIssueSourceFactory, writeLocalIssue } from '../../../src/activities/issues/local-issue-store.js';
import { prepareWorkspace } from '../../../src/activities/workspace/prepare-workspace.js';
import { branchOwner } from '../../../src/activities/workspace/branch-owner.js';
import { handOverBranch } from '../../../src/activities/pipeline/hand-over-branch.js';
import { restoreGitState } from '../../../src/activities/workspace/git/git-state-guard.js';
import { makeTempGitRepo, type TempGitRepo } from '../../helpers/temp-git-repo.js';

const deps = { issueSource: localIssueSourceFactory };
const input = (repoPath: string, agent: string | undefined): PrepareWorkspaceInput => ({
  repoPath,
  issue: 7,
  issueSource: 'local',
  worktreeRoot: undefined,
  branchPrefix: 'agent',
  ...(agent === undefined ? {} : { agent }),
});

async function withRepo(body: (repo: TempGitRepo) => Promise<void>): Promise<void> {
  const repo = await makeTempGitRepo({});
  try {
    await writeLocalIssue(repo.dir, { number: 7, title: 'Fix it', body: 'Please.' });
    await body(repo);
  } finally {
    await repo.cleanup();
  }
}

const owned = (owner: string, agent: string) => (e: unknown) =>
  AgentError.isInstance(e) &&
  e.code === 'WORKTREE_OWNED' &&
  e.message.includes(`belong to agent "${owner}"`) &&
  e.message.includes(`agent "${agent}" may not work them`) &&
  (e.expected ?? '').includes('git config branch.agent/issue-7.agentOwner');

test('a second agent on the same issue is refused: it never gets the first agent’s worktree or branch', async () => {
  await withRepo(async (repo) => {
    const first = await prepareWorkspace(deps, input(repo.dir, 'iterator'));
    assert.equal(first.branch, 'agent/issue-7');
    assert.equal(await branchOwner(repo.dir, 'agent/issue-7'), 'iterator');
    await repo.git('-C', first.worktreePath, 'commit', '--allow-empty', '-qm', 'iterator work');
    const head = await repo.git('rev-parse', 'agent/issue-7');

    // Live worktree: refused before anything is touched.
    await assert.rejects(prepareWorkspace(deps, input(repo.dir, 'reviewer')), owned('iterator', 'reviewer'));
    // The worktree gone (a delivered `branch`), the branch kept: still the iterator's.
    await repo.git('worktree', 'remove', '--force', first.worktreePath);
    await assert.rejects(prepareWorkspace(deps, input(repo.dir, 'reviewer')), owned('iterator', 'reviewer'));
    assert.equal(await repo.git('rev-parse', 'agent/issue-7'), head, 'the refused run moved nothing');
    assert.equal(await repo.git('worktree', 'list', '--porcelain').then((t) => t.includes('issue-7')), false);

    // The owner itself finds its branch again.
    const again = await prepareWorkspace(deps, input(repo.dir, 'iterator'));
    assert.equal(again.reused, true);
    assert.equal(await repo.git('-C', again.worktreePath, 'rev-parse', 'HEAD'), head);
  });
});

test('a hand-over after the run’s git snapshot survives the git-state guard (a harness key, like agentBase)', async () => {
  await withRepo(async (repo) => {
    const first = await prepareWorkspace(deps, input(repo.dir, 'iterator'));
    // The snapshot (taken above) says iterator; the pipeline then hands the branch over.
    const hand = { isRunLive: async () => false };
    await handOverBranch(hand, { repoPath: repo.dir, issue: 7, branchPrefix: 'agent', to: 'reviewer' });
    await repo.git('config', 'core.fsmonitor', 'echo planted');
    const report = await restoreGitState(first.worktreePath);
    assert.ok(report.restored.length > 0, 'the planted key was restored');
    assert.equal(await repo.git('config', '--get-all', 'core.fsmonitor').catch(() => ''), '');
    assert.equal(await branchOwner(repo.dir, 'agent/issue-7'), 'reviewer');
  });
});

test('a branch without a recorded owner is claimed by the first agent; old inputs without an agent check nothing', async () => {
  await withRepo(async (repo) => {
    await repo.git('branch', 'agent/issue-7');
    await prepareWorkspace(deps, input(repo.dir, undefined));
    assert.equal(await branchOwner(repo.dir, 'agent/issue-7'), undefined);
    await prepareWorkspace(deps, input(repo.dir, 'reviewer'));
    assert.equal(await branchOwner(repo.dir, 'agent/issue-7'), 'reviewer');
  });
});

test('handOverBranch gives the branch to the next agent, idempotently, and never while the owner runs', async () => {
  await withRepo(async (repo) => {
    const live = new Set<string>(['repo-1/iterator/issue-7']);
    const hand = { isRunLive: async (id: string) => live.has(id) };
    const over = { repoPath: repo.dir, issue: 7, branchPrefix: 'agent', to: 'reviewer', repoId: 'repo-1' };

    assert.deepEqual(await handOverBranch(hand, over), {
      branch: 'agent/issue-7',
      to: 'reviewer',
      outcome: 'no-branch',
    });
    const first = await prepareWorkspace(deps, input(repo.dir, 'iterator'));
    await assert.rejects(
      handOverBranch(hand, over),
      (e: unknown) =>
        AgentError.isInstance(e) &&
        e.code === 'WORKTREE_OWNED' &&
        e.message.includes('agent "iterator" is still working it (run repo-1/iterator/issue-7)'),
    );
    live.clear();
    assert.deepEqual(await handOverBranch(hand, over), {
      branch: 'agent/issue-7',
      to: 'reviewer',
      from: 'iterator',
      outcome: 'handed-over',
    });
    assert.deepEqual(await handOverBranch(hand, over), {
      branch: 'agent/issue-7',
      to: 'reviewer',
      from: 'reviewer',
      outcome: 'already-owned',
    });
    const second = await prepareWorkspace(deps, input(repo.dir, 'reviewer'));
    assert.equal(second.worktreePath, first.worktreePath, 'the handed-over worktree, now the reviewer’s');
    await assert.rejects(prepareWorkspace(deps, input(repo.dir, 'iterator')), owned('reviewer', 'iterator'));
  });
});

/** WORKTREE_OWNED naming the owner and the refused agent, whatever branch the refused agent would use. */
const ownedBy = (owner: string, agent: string) => (e: unknown) =>
  AgentError.isInstance(e) &&
  e.code === 'WORKTREE_OWNED' &&
  e.message.includes(`belong to agent "${owner}"`) &&
  e.message.includes(`agent "${agent}" may not work them`);

test('a second agent with its own branchPrefix is refused the first agent’s live worktree, naming its owner', async () => {
  await withRepo(async (repo) => {
    const first = await prepareWorkspace(deps, input(repo.dir, 'considerer'));
    await assert.rejects(
      prepareWorkspace(deps, { ...input(repo.dir, 'detailer'), branchPrefix: 'detail' }),
      ownedBy('considerer', 'detailer'),
    );
    assert.equal(await repo.git('-C', first.worktreePath, 'branch', '--show-current'), 'agent/issue-7');
    assert.equal(await repo.git('branch', '--list', 'detail/issue-7'), '', 'no second branch was made');
  });
});

test('a second agent with its own worktree root is refused the first agent’s checked-out branch, naming its owner', async () => {
  await withRepo(async (repo) => {
    const first = await prepareWorkspace(deps, input(repo.dir, 'considerer'));
    await assert.rejects(
      prepareWorkspace(deps, { ...input(repo.dir, 'detailer'), worktreeRoot: '.worktrees' }),
      (e: unknown) => ownedBy('considerer', 'detailer')(e) && (e as Error).message.includes(first.worktreePath), // the owner's worktree, not .worktrees
    );
    assert.equal(await branchOwner(repo.dir, 'agent/issue-7'), 'considerer');
    const list = await repo.git('worktree', 'list', '--porcelain');
    assert.equal(list.includes('.worktrees'), false, 'no second worktree');
  });
});

/** WORKTREE_OWNED for a second live branch: names the live one, its owner and the refused agent's branch. */
const secondLive = (live: string, owner: string, agent: string, wanted: string) => (e: unknown) =>
  AgentError.isInstance(e) &&
  e.code === 'WORKTREE_OWNED' &&
  e.message.includes(`issue #7 already has a live branch, ${live}`) &&
  e.message.includes(`agent "${owner}"`) &&
  e.message.includes(`agent "${agent}" would make a second one, ${wanted}`);

test('another branchPrefix and worktree root do not give an issue a second live branch', async () => {
  await withRepo(async (repo) => {
    const first = await prepareWorkspace(deps, input(repo.dir, 'considerer'));
    const other = { ...input(repo.dir, 'detailer'), branchPrefix: 'detail', worktreeRoot: '.worktrees' };
    await assert.rejects(
      prepareWorkspace(deps, other),
      secondLive('agent/issue-7', 'considerer', 'detailer', 'detail/issue-7'),
    );
    assert.equal(await repo.git('branch', '--list', 'detail/issue-7'), '', 'no second branch');
    assert.equal(
      (await repo.git('worktree', 'list', '--porcelain')).includes('.worktrees'),
      false,
      'no second worktree',
    );
    // The same agent under a new prefix would make a second branch too.
    await assert.rejects(
      prepareWorkspace(deps, {
        ...input(repo.dir, 'considerer'),
        branchPrefix: 'consider',
        worktreeRoot: '.worktrees',
      }),
      secondLive('agent/issue-7', 'considerer', 'considerer', 'consider/issue-7'),
    );
    // Once the first run's worktree is gone (delivered as a branch), the other prefix may work the issue.
    await repo.git('worktree', 'remove', '--force', first.worktreePath);
    const second = await prepareWorkspace(deps, other);
    assert.equal(second.branch, 'detail/issue-7');
    assert.equal(await branchOwner(repo.dir, 'detail/issue-7'), 'detailer');
  });
});

test('a branch named like an issue branch but made by hand (no owner) is not a live run branch', async () => {
  await withRepo(async (repo) => {
    await repo.git('worktree', 'add', '-q', '-b', 'fix/issue-7', `${repo.dir}-hand`);
    try {
      const prepared = await prepareWorkspace(deps, input(repo.dir, 'iterator'));
      assert.equal(prepared.branch, 'agent/issue-7');
    } finally {
      await repo.git('worktree', 'remove', '--force', `${repo.dir}-hand`);
    }
  });
});
