/**
 * The agent's own repository and the import of its work into the user's, on real
 * repositories: commits the agent's git makes land in its private store only, until the
 * import brings them over as verified data; a branch the user moved on its own is
 * adopted, never thrown away; diverged histories are refused with both tips named.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentError } from '../../../../src/contracts/errors.js';
import { localIssueSourceFactory, writeLocalIssue } from '../../../../src/activities/issues/local-issue-store.js';
import { prepareWorkspace } from '../../../../src/activities/workspace/prepare-workspace.js';
import { git } from '../../../../src/activities/workspace/git/git.js';
import { importRunRefs } from '../../../../src/activities/workspace/private-repo/import-run-refs.js';
import { privateRepoOf } from '../../../../src/activities/workspace/private-repo/private-repo-layout.js';
import { makeTempGitRepo, type TempGitRepo } from '../../../helpers/temp-git-repo.js';

const IDENTITY = ['-c', 'user.name=Agent', '-c', 'user.email=agent@example.invalid'];

async function workspace(): Promise<{ repo: TempGitRepo; worktree: string }> {
  const repo = await makeTempGitRepo({});
  await writeLocalIssue(repo.dir, { number: 3, title: 'Add a file', body: 'Please.' });
  await repo.write({ '.git/info/exclude': '.agent/\n' });
  const ws = await prepareWorkspace(
    { issueSource: localIssueSourceFactory },
    { repoPath: repo.dir, issue: 3, issueSource: 'local', worktreeRoot: undefined, branchPrefix: 'agent' },
  );
  return { repo, worktree: ws.worktreePath };
}

/** A commit by the agent's git (harness git in the worktree runs in its sandbox, as the agent's does). */
async function agentCommit(worktree: string, file: string): Promise<string> {
  await writeFile(join(worktree, file), `${file}\n`);
  assert.equal((await git(worktree, ['add', file])).exitCode, 0);
  const committed = await git(worktree, [...IDENTITY, 'commit', '-q', '-m', `add ${file}`]);
  assert.equal(committed.exitCode, 0, committed.stderr);
  return (await git(worktree, ['rev-parse', 'HEAD'])).stdout;
}

test("the agent's commits stay in its own repository until imported, then arrive verified", async () => {
  const { repo, worktree } = await workspace();
  try {
    const own = privateRepoOf(worktree);
    assert.ok(own, 'the run has a repository of its own');
    const before = await repo.git('rev-parse', 'agent/issue-3');
    const objectsBefore = await repo.git('count-objects', '-v');
    const tip = await agentCommit(worktree, 'a.txt');
    assert.equal(await repo.git('rev-parse', 'agent/issue-3'), before, "the user's branch did not move");
    assert.equal(await repo.git('count-objects', '-v'), objectsBefore, "nothing was written into the user's objects");
    await assert.rejects(repo.git('cat-file', '-e', tip), "the agent's commit is not in the user's repository yet");

    const imported = await importRunRefs(worktree);
    assert.deepEqual(imported?.updated, [{ ref: 'refs/heads/agent/issue-3', commit: tip }]);
    assert.equal(await repo.git('rev-parse', 'agent/issue-3'), tip);
    await repo.git('fsck', '--strict', '--no-dangling');
    assert.ok(!existsSync(own.repo.importDir), 'the import leaves nothing behind');
    // The host's view of the worktree follows: no phantom change against the old tip.
    assert.equal(await repo.git('-C', worktree, 'status', '--porcelain', '--untracked-files=no'), '');
  } finally {
    await repo.cleanup();
  }
});

test('a branch the user moved on its own is adopted by the agent, never thrown away', async () => {
  const { repo, worktree } = await workspace();
  try {
    // The user commits in the worktree with the host's git, which sees the user's repository.
    await writeFile(join(worktree, 'by-user.txt'), 'user\n');
    await repo.git('-C', worktree, 'add', 'by-user.txt');
    await repo.git('-C', worktree, 'commit', '-qm', 'by the user');
    const userTip = await repo.git('rev-parse', 'agent/issue-3');
    await importRunRefs(worktree);
    assert.equal(await repo.git('rev-parse', 'agent/issue-3'), userTip, "the user's commit stays");
    assert.equal((await git(worktree, ['rev-parse', 'HEAD'])).stdout, userTip, "the agent's repository follows");
    assert.equal((await git(worktree, ['status', '--porcelain'])).stdout, '', 'and its index with it');
    // The agent builds on it: a fast-forward.
    const next = await agentCommit(worktree, 'b.txt');
    await importRunRefs(worktree);
    assert.equal(await repo.git('rev-parse', 'agent/issue-3'), next);
  } finally {
    await repo.cleanup();
  }
});

test('diverged histories are refused with both tips named; nothing moves', async () => {
  const { repo, worktree } = await workspace();
  try {
    const agentTip = await agentCommit(worktree, 'a.txt');
    await repo.git('branch', '-f', 'side', 'agent/issue-3');
    await repo.git('-C', repo.dir, 'commit', '--allow-empty', '-qm', 'on main');
    await repo.git('update-ref', 'refs/heads/agent/issue-3', 'main');
    const userTip = await repo.git('rev-parse', 'agent/issue-3');
    await assert.rejects(importRunRefs(worktree), (err: unknown) => {
      assert.ok(AgentError.isInstance(err));
      assert.equal(err.code, 'WORKTREE_FAILED');
      assert.match(err.message, new RegExp(`${userTip.slice(0, 12)}.*${agentTip.slice(0, 12)}`));
      return true;
    });
    assert.equal(await repo.git('rev-parse', 'agent/issue-3'), userTip, "the user's branch is as the user left it");
  } finally {
    await repo.cleanup();
  }
});
