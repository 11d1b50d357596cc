/**
 * The checkpoint's git script (commit-checkpoint.ts) on a real repository: what one
 * process does that five did before, and how it says which command failed.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { AgentError } from '../../../../src/contracts/errors.js';
import { commitCheckpoint } from '../../../../src/activities/workspace/checkpoints/commit-checkpoint.js';
import { makeTempGitRepo } from '../../../helpers/temp-git-repo.js';

const REF = 'refs/agent/test/issue-1/step-1';

test('one script stages everything, commits on HEAD, moves the ref and lists the refs asked for', async () => {
  const repo = await makeTempGitRepo();
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'commit-checkpoint-'));
  try {
    await repo.write({ 'README.md': '# changed\n', 'new.txt': 'untracked\n' });
    const done = await commitCheckpoint({
      worktreePath: repo.dir,
      indexFile: path.join(scratch, 'index'),
      stage: 'all',
      ref: REF,
      message: 'worktree checkpoint: work · iteration 1',
      list: ['refs/heads/main', REF],
    });
    assert.ok(done !== 'stage-failed');
    assert.equal(await repo.git('rev-parse', REF), done.commit);
    assert.equal(await repo.git('rev-parse', `${done.commit}^`), await repo.git('rev-parse', 'HEAD'));
    assert.equal(await repo.git('show', `${done.commit}:new.txt`), 'untracked');
    assert.equal(
      await repo.git('log', '-1', '--format=%an <%ae>', done.commit),
      'issue-agent checkpoint <checkpoint@issue-agent.invalid>',
    );
    assert.match(done.listed, new RegExp(`^${done.commit} commit ${REF}$`, 'm'));
    assert.match(done.listed, / commit refs\/heads\/main$/m);
    assert.equal(
      await repo.git('status', '--porcelain'),
      'M README.md\n?? new.txt',
      'the worktree and its index are untouched',
    );
  } finally {
    await repo.cleanup();
    await rm(scratch, { recursive: true, force: true });
  }
});

test('an unborn branch gets a root commit', async () => {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'commit-checkpoint-unborn-')));
  try {
    execFileSync('git', ['init', '-q', '--initial-branch=main', dir]);
    await writeFile(path.join(dir, 'a.txt'), 'a\n');
    const done = await commitCheckpoint({
      worktreePath: dir,
      indexFile: path.join(dir, '.git', 'checkpoint-index'),
      stage: 'all',
      ref: REF,
      message: 'first',
      list: [],
    });
    assert.ok(done !== 'stage-failed');
    assert.equal(
      execFileSync('git', ['rev-list', '--parents', '-1', done.commit], { cwd: dir, encoding: 'utf8' }).trim(),
      done.commit,
    );
    assert.equal(done.listed, '');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a failing command is named in a WORKTREE_FAILED error; a failing add is reported for the caller to retry', async () => {
  const repo = await makeTempGitRepo();
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'commit-checkpoint-'));
  try {
    const request = {
      worktreePath: repo.dir,
      indexFile: path.join(scratch, 'index'),
      ref: 'refs/agent/bad..name',
      message: 'm',
      list: [],
    };
    await assert.rejects(
      commitCheckpoint({ ...request, stage: 'all' }),
      (error: unknown) =>
        AgentError.isInstance(error) && error.code === 'WORKTREE_FAILED' && /git update-ref failed/.test(error.message),
    );
    // A nested repository with no commit checked out: `add --all` refuses it.
    execFileSync('git', ['init', '-q', path.join(repo.dir, 'nested')]);
    await writeFile(path.join(repo.dir, 'nested', 'x.txt'), 'x\n');
    assert.equal(await commitCheckpoint({ ...request, ref: REF, stage: 'all' }), 'stage-failed');
  } finally {
    await repo.cleanup();
    await rm(scratch, { recursive: true, force: true });
  }
});
