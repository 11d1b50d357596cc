import { test } from 'node:test';
import { existsSync } from 'node:fs';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { AgentError } from '../../../src/contracts/errors.js';
import { writeLocalIssue } from '../../../src/activities/issues/local-issue-store.js';
import { prepareWorkspace } from '../../../src/activities/workspace/prepare-workspace.js';
import { agentHomePath, sandboxDir, writeSandboxFile } from '../../../src/activities/workspace/sandbox-state.js';
import { makeTempGitRepo } from '../../helpers/temp-git-repo.js';
import { workspaceDeps as deps, workspaceInput as input } from './workspace-fixture.js';

test('creates the worktree on a new branch from the current branch, then reuses it', async () => {
  const repo = await makeTempGitRepo({});
  try {
    await writeLocalIssue(repo.dir, { number: 5, title: 'Add a greeting', body: 'Please.' });
    const first = await prepareWorkspace(deps, input(repo.dir));
    assert.deepEqual(
      { ...first, issue: first.issue.title },
      {
        worktreePath: join(repo.dir, '.worktrees', 'issue-5'),
        branch: 'agent/issue-5',
        baseBranch: 'main',
        reused: false,
        issue: 'Add a greeting',
      },
    );
    assert.equal(await repo.git('-C', first.worktreePath, 'branch', '--show-current'), 'agent/issue-5');
    assert.match(await readFile(join(repo.dir, '.git', 'info', 'exclude'), 'utf8'), /^\/\.worktrees\/$/m);
    assert.equal(
      await repo.git('status', '--porcelain', '--', '.worktrees'),
      '',
      'worktree root is ignored by the main checkout',
    );

    const again = await prepareWorkspace(deps, input(repo.dir));
    assert.equal(again.reused, true);
    assert.equal(again.worktreePath, first.worktreePath);
    assert.equal(again.baseBranch, 'main');
    const excludes = (await readFile(join(repo.dir, '.git', 'info', 'exclude'), 'utf8')).match(/\/\.worktrees\//g);
    assert.equal(excludes?.length, 1, 'exclude line added once');
  } finally {
    await repo.cleanup();
  }
});

test('re-adds the worktree when the branch survived but the directory is gone', async () => {
  const repo = await makeTempGitRepo({});
  try {
    await writeLocalIssue(repo.dir, { number: 5, title: 'T', body: 'B' });
    const first = await prepareWorkspace(deps, input(repo.dir));
    await repo.write({ '.worktrees/issue-5/work.txt': 'progress\n' });
    await repo.git('-C', first.worktreePath, 'add', 'work.txt');
    await repo.git('-C', first.worktreePath, 'commit', '-qm', 'progress');
    await rm(first.worktreePath, { recursive: true, force: true });

    await repo.git('checkout', '-qb', 'elsewhere'); // the base was recorded, not re-derived
    const resumed = await prepareWorkspace(deps, input(repo.dir));
    assert.equal(resumed.reused, true);
    assert.equal(resumed.baseBranch, 'main');
    assert.equal(await readFile(join(resumed.worktreePath, 'work.txt'), 'utf8'), 'progress\n');
  } finally {
    await repo.cleanup();
  }
});

test('missing repo or a directory that is not a git repo → REPO_NOT_FOUND naming the path', async () => {
  const missing = join(tmpdir(), 'definitely-missing-repo-xyz');
  await assert.rejects(
    prepareWorkspace(deps, input(missing)),
    (e: unknown) => AgentError.isInstance(e) && e.code === 'REPO_NOT_FOUND' && e.message.includes(missing),
  );
  const plain = await mkdtemp(join(tmpdir(), 'not-a-repo-'));
  try {
    await assert.rejects(
      prepareWorkspace(deps, input(plain)),
      (e: unknown) => AgentError.isInstance(e) && e.code === 'REPO_NOT_FOUND' && e.where === plain,
    );
  } finally {
    await rm(plain, { recursive: true, force: true });
  }
});

test('unknown issue → ISSUE_NOT_FOUND, and nothing is created', async () => {
  const repo = await makeTempGitRepo({});
  try {
    await assert.rejects(
      prepareWorkspace(deps, input(repo.dir, 42)),
      (e: unknown) => AgentError.isInstance(e) && e.code === 'ISSUE_NOT_FOUND' && /42\.md/.test(e.message),
    );
    await assert.rejects(stat(join(repo.dir, '.worktrees')));
    assert.equal(await repo.git('branch', '--list', 'agent/*'), '');
  } finally {
    await repo.cleanup();
  }
});

test('a worktree root outside the repository is refused', async () => {
  const repo = await makeTempGitRepo({});
  try {
    await writeLocalIssue(repo.dir, { number: 5, title: 'T', body: 'B' });
    await assert.rejects(
      prepareWorkspace(deps, { ...input(repo.dir), worktreeRoot: '../escape' }),
      (e: unknown) => AgentError.isInstance(e) && e.code === 'CONFIG_INVALID',
    );
  } finally {
    await repo.cleanup();
  }
});

test("without a worktree root the worktree lives in the worker's state dir, outside the work tree and any .git", async () => {
  const repo = await makeTempGitRepo({});
  const stateDir = await realpath(await mkdtemp(join(tmpdir(), 'state-')));
  const withState = { ...deps, stateDir };
  try {
    await writeLocalIssue(repo.dir, { number: 6, title: 'T', body: 'B' });
    const out = await prepareWorkspace(withState, { ...input(repo.dir, 6), worktreeRoot: undefined });
    const real = await realpath(repo.dir);
    const root = join(stateDir, 'worktrees', `${basename(real)}-`);
    assert.match(out.worktreePath.slice(root.length), /^[0-9a-f]{12}\/issue-6$/, out.worktreePath);
    assert.ok(out.worktreePath.startsWith(root), out.worktreePath);
    assert.doesNotMatch(out.worktreePath, /\/\.git\//, 'Jest skips every path with a /.git/ segment');
    assert.equal(await repo.git('-C', out.worktreePath, 'branch', '--show-current'), 'agent/issue-6');
    assert.equal(await repo.git('-C', out.worktreePath, 'rev-parse', '--show-toplevel'), out.worktreePath);
    await writeFile(join(out.worktreePath, 'new.txt'), 'x\n');
    assert.equal(
      await repo.git('status', '--porcelain', '--', '.', ':!.agent'),
      '',
      'the main checkout does not see the worktree',
    );
    const exclude = await readFile(join(repo.dir, '.git', 'info', 'exclude'), 'utf8').catch(() => '');
    assert.doesNotMatch(exclude, /worktrees/, 'nothing to exclude: the worktree is not in the work tree');
    const again = await prepareWorkspace(withState, { ...input(repo.dir, 6), worktreeRoot: undefined });
    assert.equal(again.reused, true);
    assert.equal(again.worktreePath, out.worktreePath);
  } finally {
    await repo.cleanup();
    await rm(stateDir, { recursive: true, force: true });
  }
});

test("a new worktree at a path an earlier one used starts without that one's sandbox state", async () => {
  // A discarded run (`git worktree remove` + `git branch -D`, as start-run's last lines say)
  // or a repository cloned afresh at the same path: the earlier worktree's environment
  // report, agent HOME and private repository must not be taken for the new one's (a
  // long-lived worker sweeps stale state at most once a minute).
  const repo = await makeTempGitRepo({});
  try {
    await writeLocalIssue(repo.dir, { number: 5, title: 'T', body: 'B' });
    const first = await prepareWorkspace(deps, input(repo.dir));
    await writeSandboxFile(first.worktreePath, 'environment.json', '{"version":1}\n');
    const stale = join(sandboxDir(first.worktreePath), 'environment.json');
    assert.ok(existsSync(stale));
    await repo.git('worktree', 'remove', '--force', first.worktreePath);
    await repo.git('branch', '-D', 'agent/issue-5');

    const fresh = await prepareWorkspace(deps, input(repo.dir));
    assert.equal(fresh.reused, false);
    assert.equal(fresh.worktreePath, first.worktreePath);
    assert.ok(!existsSync(stale), "the earlier worktree's environment report is gone");
    assert.ok(existsSync(agentHomePath(fresh.worktreePath)), 'the new worktree has its own HOME');
  } finally {
    await repo.cleanup();
  }
});
