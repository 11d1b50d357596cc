import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  branchExists,
  currentBranch,
  isAncestor,
  isGitWorkTree,
  listWorktrees,
  statusLines,
} from '../../../../src/activities/workspace/git/repo-queries.js';
import { git, gitOrThrow } from '../../../../src/activities/workspace/git/git.js';
import { makeTempGitRepo } from '../../../helpers/temp-git-repo.js';

test('queries answer from a real repository', async () => {
  const repo = await makeTempGitRepo({ files: { 'a.txt': 'a\n' } });
  try {
    assert.equal(await isGitWorkTree(repo.dir), true);
    assert.equal(await currentBranch(repo.dir), 'main');
    assert.equal(await branchExists(repo.dir, 'main'), true);
    assert.equal(await branchExists(repo.dir, 'nope'), false);
    await repo.git('branch', 'side');
    assert.equal(await isAncestor(repo.dir, 'side', 'main'), true);

    await repo.write({ 'a.txt': 'changed\n', 'new.txt': 'n\n' });
    assert.deepEqual(await statusLines(repo.dir, { includeUntracked: false }), [' M a.txt']);
    assert.deepEqual(await statusLines(repo.dir, { includeUntracked: true }), [' M a.txt', '?? new.txt']);

    const wt = join(repo.dir, '.wt', 'x');
    await repo.git('worktree', 'add', '-q', wt, 'side');
    const list = await listWorktrees(repo.dir);
    assert.deepEqual(
      list.map((w) => [w.path, w.branch, w.prunable]),
      [
        [repo.dir, 'main', false],
        [wt, 'side', false],
      ],
    );
  } finally {
    await repo.cleanup();
  }
});

test('git never throws for a failing command; gitOrThrow names the command and directory', async () => {
  const repo = await makeTempGitRepo({});
  try {
    const r = await git(repo.dir, ['rev-parse', '--verify', 'no-such-ref']);
    assert.notEqual(r.exitCode, 0);
    await assert.rejects(
      gitOrThrow(repo.dir, ['checkout', 'no-such-branch'], 'WORKTREE_FAILED'),
      (e: Error & { code?: string }) => {
        return e.code === 'WORKTREE_FAILED' && e.message.includes('git checkout no-such-branch failed in ' + repo.dir);
      },
    );
  } finally {
    await repo.cleanup();
  }
});
