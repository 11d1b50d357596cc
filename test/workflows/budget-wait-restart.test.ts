/**
 * A budget pause is durable (issue 40): while the run waits for more budget no activity is
 * pending (it holds no worker slot); its worker is SIGKILLed during the wait, a new worker
 * takes the extension, and the run goes on from the step it stopped at and delivers.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEMO_DIR } from '../../src/dev/sample-repo.js';
import { localIssuePath } from '../../src/activities/issues/local-issue-store.js';
import { progressQuery, raiseBudgetUpdate } from '../../src/workflows/run/messages.js';
import { teardownEnv } from '../helpers/temporal-env.js';
import { until } from '../helpers/until.js';
import { restartableRun } from './restartable-run.js';
import { readRunResult } from '../../src/host/run-result.js';

after(teardownEnv);

test(
  'a worker killed while the run waits for budget: a new worker takes the extension',
  { timeout: 240_000 },
  async () => {
    const run = await restartableRun('budget-restart', join(DEMO_DIR, 'session.json'), { budget: { maxTokens: 3000 } });
    const { handle, model } = run;
    try {
      // Paused, its notice posted (the notice is an activity of its own), and then nothing pending.
      const paused = await until(
        'the budget pause, posted, nothing pending',
        async () => {
          const p = await handle.query(progressQuery).catch(() => undefined);
          const posted = (await readFile(localIssuePath(run.repoPath, run.issue), 'utf8')).includes(
            'Paused: the budget',
          );
          const pending = (await handle.describe()).raw.pendingActivities?.length ?? 0;
          return p?.phase === 'budget-exhausted' && p.waiting?.kind === 'budget' && posted && pending === 0
            ? p
            : undefined;
        },
        120_000,
        100,
      );
      const requestsBefore = model.stats().requests;
      await run.restartWorker();
      const raised = await handle.executeUpdate(raiseBudgetUpdate, { args: [{ maxTokens: 200_000 }] });
      assert.equal(raised.maxTokens, 200_000);
      const result = await readRunResult(handle);
      assert.equal(result.outcome, 'success', result.reason);
      assert.ok(model.stats().requests > requestsBefore, 'the run went on after the extension');
      assert.ok(
        result.steps.some((s) => s.stepId === paused.stepId),
        `it went on from ${paused.stepId}`,
      );
    } finally {
      await run.close();
    }
  },
);
