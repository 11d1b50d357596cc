/**
 * The git-state guard: what the agent changes in the shared git dir (config, hooks,
 * worktree pointers) is found after the step, put back byte for byte and reported;
 * the harness's own config keys written by other runs survive.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { restoreGitState } from '../../../../src/activities/workspace/git/git-state-guard.js';
import { withRepoLock } from '../../../../src/activities/workspace/git/repo-lock.js';
import {
  snapshotGitState,
  takeGitSnapshot,
  type FileEntry,
  type GitStateSnapshot,
} from '../../../../src/activities/workspace/git/git-state-snapshot.js';
import { removeAgentSandbox } from '../../../../src/activities/workspace/sandbox-state.js';
import { makeTempGitRepo } from '../../../helpers/temp-git-repo.js';

/** Sets a file's mtime to the nanosecond (GNU touch; Node's utimes rounds). */
function setMtimeNs(file: string, ns: bigint): void {
  const seconds = ns / 1_000_000_000n;
  const fraction = String(ns % 1_000_000_000n).padStart(9, '0');
  execFileSync('touch', ['-m', '-d', `@${seconds}.${fraction}`, file]);
}

/** A snapshot without the stamps: a restored file has the same bytes but a new ctime. */
function contentOf(snapshot: GitStateSnapshot): unknown {
  const strip = (entry: FileEntry | null): unknown =>
    entry?.kind === 'file' ? { kind: entry.kind, mode: entry.mode, base64: entry.base64 } : entry;
  return {
    ...snapshot,
    files: Object.fromEntries(Object.entries(snapshot.files).map(([k, v]) => [k, strip(v)])),
    hooks: snapshot.hooks && Object.fromEntries(Object.entries(snapshot.hooks).map(([k, v]) => [k, strip(v)])),
  };
}

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
    assert.deepEqual(contentOf(await takeGitSnapshot(dir, wt)), contentOf(before), 'back to the snapshot');
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
    assert.deepEqual(contentOf(await takeGitSnapshot(dir, wt)), contentOf(before));
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

test('a hook rewritten with the same size and its mtime set back is still found (the stamp is the ctime)', async () => {
  const { dir, wt, cleanup } = await repoWithWorktree();
  try {
    await snapshotGitState(dir, wt, { keepExisting: false });
    const hook = path.join(dir, '.git/hooks/pre-commit.sample');
    const original = readFileSync(hook, 'utf8');
    const { mtimeNs } = statSync(hook, { bigint: true });
    // Same length, other bytes, the old mtime put back to the nanosecond: only ctime can tell.
    writeFileSync(hook, original.replace('exit 0', 'exit 9'));
    setMtimeNs(hook, mtimeNs);
    assert.equal(statSync(hook, { bigint: true }).mtimeNs, mtimeNs);
    assert.equal(statSync(hook).size, Buffer.byteLength(original));
    assert.deepEqual((await restoreGitState(wt)).restored, [hook]);
    assert.equal(readFileSync(hook, 'utf8'), original);
    const config = path.join(dir, '.git/config');
    const configText = readFileSync(config, 'utf8');
    const configTime = statSync(config, { bigint: true }).mtimeNs;
    writeFileSync(config, configText.replace('bare = false', 'bare = fals0'));
    setMtimeNs(config, configTime);
    assert.deepEqual((await restoreGitState(wt)).restored, [config]);
  } finally {
    await cleanup();
  }
});
