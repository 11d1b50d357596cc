/**
 * The git-state guard: what the agent changes in the shared git dir (config, hooks,
 * worktree pointers) is found after the step, put back byte for byte and reported;
 * the harness's own config keys written by other runs survive.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { restoreGitState } from '../../../../src/activities/workspace/git/git-state-guard.js';
import { withRepoLock } from '../../../../src/activities/workspace/git/repo-lock.js';
import { snapshotGitState, takeGitSnapshot } from '../../../../src/activities/workspace/git/git-state-snapshot.js';
import { removeAgentSandbox } from '../../../../src/activities/workspace/sandbox-state.js';
import { makeTempGitRepo } from '../../../helpers/temp-git-repo.js';

async function repoWithWorktree(): Promise<{ dir: string; wt: string; cleanup: () => Promise<void> }> {
  const repo = await makeTempGitRepo();
  const wt = path.join(repo.dir, '.worktrees', 'issue-7');
  await repo.git('worktree', 'add', '-q', '-b', 'agent/issue-7', wt);
  mkdirSync(path.join(repo.dir, '.git/hooks'), { recursive: true });
  writeFileSync(path.join(repo.dir, '.git/hooks/pre-commit.sample'), '#!/bin/sh\nexit 0\n');
  return {
    dir: repo.dir,
    wt,
    cleanup: async () => {
      await removeAgentSandbox(wt);
      await repo.cleanup();
    },
  };
}

test('planted hooks, fsmonitor, hooksPath and a redirected worktree are restored and reported', async () => {
  const { dir, wt, cleanup } = await repoWithWorktree();
  try {
    await snapshotGitState(dir, wt, { keepExisting: false });
    const before = await takeGitSnapshot(dir, wt);
    const git = path.join(dir, '.git');
    writeFileSync(path.join(git, 'hooks/post-commit'), '#!/bin/sh\nenv > /tmp/leak\n');
    chmodSync(path.join(git, 'hooks/post-commit'), 0o755);
    writeFileSync(path.join(git, 'hooks/pre-commit.sample'), 'changed');
    mkdirSync(path.join(git, 'hooks/nested'));
    writeFileSync(path.join(git, 'hooks/nested/x'), 'x');
    writeFileSync(
      path.join(git, 'config'),
      `${readFileSync(path.join(git, 'config'), 'utf8')}[core]\n\tfsmonitor = /tmp/evil\n\thooksPath = /tmp/evil-hooks\n`,
    );
    writeFileSync(path.join(wt, '.git'), 'gitdir: /tmp/elsewhere\n');

    const report = await restoreGitState(wt);
    assert.equal(report.checked, true);
    const names = report.restored.map((p) => path.relative(dir, p)).sort();
    assert.deepEqual(names, [
      '.git/config',
      '.git/hooks/nested/x',
      '.git/hooks/post-commit',
      '.git/hooks/pre-commit.sample',
      '.worktrees/issue-7/.git',
    ]);
    assert.deepEqual(await takeGitSnapshot(dir, wt), before, 'back to the snapshot');
    assert.deepEqual((await restoreGitState(wt)).restored, [], 'a second check finds nothing');
  } finally {
    await cleanup();
  }
});

test('a hooks directory replaced by a symlink, or a removed config, is rebuilt', async () => {
  const { dir, wt, cleanup } = await repoWithWorktree();
  try {
    await snapshotGitState(dir, wt, { keepExisting: false });
    const before = await takeGitSnapshot(dir, wt);
    const git = path.join(dir, '.git');
    rmSync(path.join(git, 'hooks'), { recursive: true });
    symlinkSync('/tmp', path.join(git, 'hooks'));
    const report = await restoreGitState(wt);
    assert.ok(report.restored.length > 0);
    assert.deepEqual(await takeGitSnapshot(dir, wt), before);
  } finally {
    await cleanup();
  }
});

test("the harness's own config keys (another run's agentBase) are not reverted", async () => {
  const { dir, wt, cleanup } = await repoWithWorktree();
  try {
    await snapshotGitState(dir, wt, { keepExisting: false });
    const repoGit = async (...args: string[]): Promise<string> => {
      const { execa } = await import('execa');
      return (await execa('git', args, { cwd: dir })).stdout.trim();
    };
    await repoGit('config', 'branch.agent/issue-8.agentBase', 'main');
    assert.deepEqual((await restoreGitState(wt)).restored, [], 'only a harness key changed');
    await repoGit('config', 'core.fsmonitor', '/tmp/evil');
    const report = await restoreGitState(wt);
    assert.deepEqual(report.restored, [path.join(dir, '.git/config')]);
    assert.equal(await repoGit('config', '--get', 'branch.agent/issue-8.agentBase'), 'main');
    await assert.rejects(repoGit('config', '--get', 'core.fsmonitor'));
  } finally {
    await cleanup();
  }
});

test('a resumed run keeps its first snapshot', async () => {
  const { dir, wt, cleanup } = await repoWithWorktree();
  try {
    await snapshotGitState(dir, wt, { keepExisting: true });
    writeFileSync(path.join(dir, '.git/hooks/post-commit'), 'planted before the crash');
    await snapshotGitState(dir, wt, { keepExisting: true });
    assert.deepEqual(
      (await restoreGitState(wt)).restored.map((p) => path.basename(p)),
      ['post-commit'],
    );
  } finally {
    await cleanup();
  }
});

test('a check that finds nothing changed does not wait for the repository lock; a change does', async () => {
  const { dir, wt, cleanup } = await repoWithWorktree();
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  try {
    await snapshotGitState(dir, wt, { keepExisting: false });
    const locked = withRepoLock(dir, () => held);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const clean = await Promise.race([
      restoreGitState(wt),
      new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 5000)),
    ]);
    assert.deepEqual(clean, { checked: true, restored: [] }, 'answered while another run holds the lock');
    writeFileSync(path.join(dir, '.git/hooks/post-commit'), '#!/bin/sh\nexit 0\n');
    let restored = false;
    const restoring = restoreGitState(wt).then((r) => ((restored = true), r));
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(restored, false, 'a restore waits for the lock');
    release();
    await locked;
    assert.deepEqual(
      (await restoring).restored.map((p) => path.relative(dir, p)),
      ['.git/hooks/post-commit'],
    );
  } finally {
    release();
    await cleanup();
  }
});
