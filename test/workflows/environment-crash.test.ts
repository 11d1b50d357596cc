/**
 * A worker SIGKILLed while the environment phase runs (prepareEnvironmentAndPreflight: the
 * setup, then the preflight, in one activity call): a new worker runs the call again, the
 * setup command that had finished is not run again (it is stamped), the interrupted one
 * is, and the run goes on to its steps and succeeds with no model request made twice.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { cacheLayout } from '../../src/activities/environment/cache-layout.js';
import { DEMO_DIR } from '../../src/dev/sample-repo.js';
import { teardownEnv } from '../helpers/temporal-env.js';
import { waitFor } from '../helpers/worker-process.js';
import { restartableRun } from './restartable-run.js';
import { readRunResult } from '../../src/host/run-result.js';

after(teardownEnv);

test(
  'SIGKILL in the environment phase: a new worker prepares it again and the run succeeds',
  { timeout: 300_000 },
  async () => {
    // Each command notes its start outside the worktree, in a shared package cache (setup runs
    // in the sandbox: that is what it may write besides the worktree); the second takes long
    // enough for the kill to land.
    const name = `environment-crash-starts-${process.pid}-${Date.now()}`;
    const log = `"$npm_config_cache/${name}"`;
    const run = await restartableRun('environment-crash', join(DEMO_DIR, 'session.json'), {
      setup: [`echo one >> ${log}`, `echo two >> ${log} && sleep 10`],
    });
    const starts = join(cacheLayout(run.repoPath).npm, name);
    const { handle, model } = run;
    try {
      await waitFor(
        () => existsSync(starts) && readFileSync(starts, 'utf8').includes('two'),
        120_000,
        'the second setup command to start',
      );
      assert.equal(model.stats().requests, 0, 'no model request before the environment phase');
      await run.killWorker();
      run.startWorker();
      const result = await readRunResult(handle);
      assert.equal(result.outcome, 'success', result.reason);
      const lines = (await readFile(starts, 'utf8')).trim().split('\n');
      assert.deepEqual(lines, ['one', 'two', 'two'], 'the finished command ran once, the interrupted one again');
      const byRule = model.stats().byRule;
      for (const [rule, count] of Object.entries(byRule)) {
        if (rule.startsWith('understand-')) assert.equal(count, 1, `${rule} asked once`);
      }
    } finally {
      await run.close();
      await rm(starts, { force: true });
    }
  },
);
