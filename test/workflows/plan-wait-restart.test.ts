/**
 * A plan's wait for approval is durable (issue 40): while the run waits no activity is
 * pending (no worker slot); its worker is SIGKILLed during the wait, a new worker takes
 * `/approve`, and the run goes on past the plan without making it again, and delivers.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { localIssuePath } from '../../src/activities/issues/local-issue-store.js';
import { answerUpdate, progressQuery } from '../../src/workflows/run/messages.js';
import { teardownEnv } from '../helpers/temporal-env.js';
import { until } from '../helpers/until.js';
import { planSession } from './plan-session.js';
import { restartableRun } from './restartable-run.js';
import { readRunResult } from '../../src/host/run-result.js';

after(teardownEnv);

test(
  'a worker killed while the plan waits for approval: a new worker takes /approve',
  { timeout: 240_000 },
  async () => {
    const run = await restartableRun('plan-restart', planSession(), { planApproval: 'always' });
    const { handle, model } = run;
    try {
      await until(
        'the plan posted, nothing pending',
        async () => {
          const p = await handle.query(progressQuery).catch(() => undefined);
          const issue = await readFile(localIssuePath(run.repoPath, run.issue), 'utf8');
          const pending = (await handle.describe()).raw.pendingActivities?.length ?? 0;
          return p?.waiting?.kind === 'plan' && issue.includes('The plan, for your approval') && pending === 0
            ? true
            : undefined;
        },
        120_000,
        100,
      );
      await run.restartWorker();
      await handle.executeUpdate(answerUpdate, { args: [{ author: 'ann', text: '/approve' }] });
      const result = await readRunResult(handle);
      assert.equal(result.outcome, 'success', result.reason);
      assert.equal(model.stats().byRule['plan'], 1, 'the plan was not made again after the restart');
      assert.equal(model.stats().byRule['reproduce'], 1, 'the run went on past the plan');
    } finally {
      await run.close();
    }
  },
);
