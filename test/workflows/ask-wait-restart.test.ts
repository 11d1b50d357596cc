/**
 * A question's wait is durable (issue 40): while the run waits for an answer no activity
 * is pending (it holds no worker slot); its worker is SIGKILLed during the wait, a new
 * worker takes the answer, and the asking step runs again with the answer quoted, without
 * asking again.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { localIssuePath } from '../../src/activities/issues/local-issue-store.js';
import { answerUpdate, progressQuery } from '../../src/workflows/run/messages.js';
import { teardownEnv } from '../helpers/temporal-env.js';
import { until } from '../helpers/until.js';
import { ANSWER, askingSession } from './asking-session.js';
import { restartableRun } from './restartable-run.js';
import { readRunResult } from '../../src/host/run-result.js';

after(teardownEnv);

test(
  'a worker killed while the run waits for an answer: a new worker takes the answer',
  { timeout: 240_000 },
  async () => {
    const run = await restartableRun('ask-restart', askingSession());
    const { handle, model } = run;
    try {
      await until(
        'the question posted, nothing pending',
        async () => {
          const p = await handle.query(progressQuery).catch(() => undefined);
          const text = await readFile(localIssuePath(run.repoPath, run.issue), 'utf8');
          const pending = (await handle.describe()).raw.pendingActivities?.length ?? 0;
          return p?.phase === 'waiting-for-answer' && text.includes('agent:waiting') && pending === 0
            ? true
            : undefined;
        },
        120_000,
        100,
      );
      await run.restartWorker();
      await handle.executeUpdate(answerUpdate, { args: [{ author: 'ann', text: ANSWER }] });
      const result = await readRunResult(handle);
      assert.equal(result.outcome, 'success', result.reason);
      const byRule = model.stats().byRule;
      assert.equal(byRule['ask'], 1, 'the question was not asked again after the restart');
      assert.equal(byRule['understand-with-answer'], 1, 'the answer reached the next prompt');
    } finally {
      await run.close();
    }
  },
);
