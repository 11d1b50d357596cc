/**
 * gitDirsOf answers from memory while the worktree's `.git` pointer is unchanged, and
 * asks git again once it changed: a worktree removed and made again at the same path for
 * another repository gets that repository's dirs (the sandbox binds them writable).
 */
import assert from 'node:assert/strict';
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { gitDirsOf } from '../../../../src/activities/workspace/git/git-state-snapshot.js';
import { makeTempGitRepo } from '../../../helpers/temp-git-repo.js';

test('a worktree made again at the same path for another repository gets its own git dirs', async () => {
  const a = await makeTempGitRepo();
  const b = await makeTempGitRepo();
  const worktree = join(a.dir, '..', `${a.dir.split('/').pop()}-wt`);
  try {
    await a.git('worktree', 'add', '-q', '-b', 'work', worktree);
    const first = await gitDirsOf(worktree);
    assert.equal(first.commonDir, join(a.dir, '.git'));
    assert.deepEqual(await gitDirsOf(worktree), first);
    await a.git('worktree', 'remove', '--force', worktree);
    await b.git('worktree', 'add', '-q', '-b', 'work', worktree);
    const second = await gitDirsOf(worktree);
    assert.equal(second.commonDir, join(b.dir, '.git'));
    assert.equal(second.gitDir, await realpath(join(b.dir, '.git', 'worktrees', worktree.split('/').pop()!)));
  } finally {
    await b.git('worktree', 'remove', '--force', worktree).catch(() => undefined);
    await a.cleanup();
    await b.cleanup();
  }
});

test('a main checkout: the git dir is the common dir', async () => {
  const repo = await makeTempGitRepo();
  try {
    const dirs = await gitDirsOf(repo.dir);
    assert.deepEqual(dirs, { commonDir: join(repo.dir, '.git'), gitDir: join(repo.dir, '.git') });
    assert.deepEqual(await gitDirsOf(repo.dir), dirs);
  } finally {
    await repo.cleanup();
  }
});
