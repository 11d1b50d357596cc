/**
 * A worker process SIGKILLed inside the boundary merge of a real run (`--deliver
 * merge`): its git stops at the fast-forward of the user's main checkout. The base
 * branch is untouched (no MERGE_HEAD, nothing staged, main checked out and clean);
 * a new worker retries the boundary activity and the run succeeds with main merged once.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DEMO_DIR } from '../../src/dev/sample-repo.js';
import { pausingGit } from '../helpers/pausing-git.js';
import { teardownEnv } from '../helpers/temporal-env.js';
import { waitFor } from '../helpers/worker-process.js';
import { restartableRun } from './restartable-run.js';
import { readRunResult } from '../../src/host/run-result.js';

after(teardownEnv);

const git = (repo: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();

test(
  'SIGKILL inside the boundary merge: main untouched, then the retry delivers once',
  { timeout: 240_000 },
  async () => {
    const fake = await pausingGit('--ff-only', 'before');
    // Until the first worker is killed its git pauses before the fast-forward: main cannot move.
    const run = await restartableRun(
      'delivery-crash',
      join(DEMO_DIR, 'session.json'),
      { tuning: { heartbeatTimeoutMs: 3000 } },
      { PATH: `${fake.dir}:${process.env['PATH'] ?? ''}` },
    );
    const { handle, repoPath } = run;
    const mainBefore = git(repoPath, 'rev-parse', 'main');
    try {
      await waitFor(() => existsSync(fake.reached), 150_000, 'the boundary merge to reach the fast-forward');
      await run.killWorker();

      assert.equal(git(repoPath, 'rev-parse', 'main'), mainBefore, 'main untouched');
      assert.equal(existsSync(join(repoPath, '.git', 'MERGE_HEAD')), false);
      assert.equal(git(repoPath, 'status', '--porcelain', '--untracked-files=no'), '');
      assert.equal(git(repoPath, 'branch', '--show-current'), 'main');

      run.startWorker();
      const result = await readRunResult(handle);
      assert.equal(result.outcome, 'success', result.reason);
      assert.equal(result.boundary?.status, 'success');
      assert.equal(git(repoPath, 'rev-parse', 'main^1'), mainBefore, 'merged once, on the old main');
      assert.match(git(repoPath, 'log', '-1', '--format=%s', 'main'), /Merge branch 'agent\/issue-1'/);
      assert.match(readFileSync(join(repoPath, 'src', 'sum.js'), 'utf8'), /a \+ b/);
      assert.equal(git(repoPath, 'status', '--porcelain', '--untracked-files=no'), '');
      assert.match(readFileSync(join(repoPath, '.agent', 'issues', '1.md'), 'utf8'), /state: closed/);
    } finally {
      await run.close();
      await rm(fake.dir, { recursive: true, force: true });
    }
  },
);
