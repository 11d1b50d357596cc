/**
 * No payload can wedge a run. Against a real run (dev server, real worker, offline
 * model parked in a slow first turn), bad `retry`, `cancel` and `raiseBudget`
 * payloads are each ignored with a warning (signals) or rejected with a reason
 * (update); no workflow task fails, the budget is unchanged, and a good cancel still
 * ends the run promptly.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { WorkflowHandle } from '@temporalio/client';
import type { SessionScript } from '../../src/dev/model-server/session-script.js';
import type { ModelServer } from '../../src/dev/model-server/model-server.js';
import type { RunProgress } from '../../src/contracts/run.js';
import {
  cancelSignal,
  progressQuery,
  raiseBudgetSignal,
  raiseBudgetUpdate,
  retrySignal,
} from '../../src/workflows/run/messages.js';
import type { runAgentWorkflow } from '../../src/workflows/run-agent.js';
import { runScenario } from '../helpers/run-scenario.js';
import { teardownEnv } from '../helpers/temporal-env.js';
import { until } from '../helpers/until.js';

after(teardownEnv);

/** The first model call hangs long enough for every signal to arrive mid-step. */
const PARKED: SessionScript = {
  name: 'parked in the first turn',
  rules: [{ id: 'slow', when: {}, respond: { text: 'thinking', delayMs: 60_000 } }],
};

type Handle = WorkflowHandle<typeof runAgentWorkflow>;

async function untilModelCalled(model: ModelServer): Promise<void> {
  await until(
    'the run to reach its first model call',
    () => (model.stats().requests > 0 ? true : undefined),
    60_000,
    100,
  );
}

/** The run's progress once it records `count` warnings (about 10 s, as the run goes on meanwhile). */
function untilWarnings(handle: Handle, count: number): Promise<RunProgress> {
  return until(
    `${count} warning(s) in the run's progress`,
    async () => {
      const progress = await handle.query(progressQuery);
      return (progress.warnings?.length ?? 0) >= count ? progress : undefined;
    },
    10_000,
    100,
  );
}

async function workflowTaskFailures(handle: Handle): Promise<number> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).filter((e) => e.workflowTaskFailedEventAttributes != null).length;
}

/** Sends `bad`, checks the run noted it and goes on, then ends it with a good cancel. */
async function attackThenCancel(send: (handle: Handle) => Promise<void>, expectWarning: RegExp): Promise<void> {
  let cancelledAt = 0;
  const { result, handle } = await runScenario({
    session: PARKED,
    during: async (h, model) => {
      await untilModelCalled(model);
      const before = await h.query(progressQuery);
      await send(h);
      const after = await untilWarnings(h, 1);
      assert.equal(after.warnings?.length, 1, `one warning recorded: ${JSON.stringify(after.warnings)}`);
      assert.match(after.warnings?.[0] ?? '', expectWarning);
      assert.deepEqual(after.budget, before.budget, 'the budget is unchanged');
      assert.equal(after.pendingRetryPrompt, false, 'no retry prompt was queued');
      assert.equal((await h.describe()).status.name, 'RUNNING', 'the run goes on');
      cancelledAt = Date.now();
      await h.signal(cancelSignal, { reason: 'operator changed their mind' });
    },
  });
  const tookMs = Date.now() - cancelledAt;
  assert.equal(result.outcome, 'cancelled', result.reason);
  assert.equal(result.reason, 'operator changed their mind');
  assert.ok(tookMs < 30_000, `the good cancel ended the run promptly (${tookMs} ms)`);
  assert.match(result.warnings?.[0] ?? '', expectWarning, 'the result carries the warning');
  assert.equal(await workflowTaskFailures(handle), 0, 'no workflow task failed');
}

test('a retry signal whose prompt is not a string is ignored with a warning', { timeout: 180_000 }, async () => {
  await attackThenCancel(
    (h) => h.signal(retrySignal, { prompt: 42 as unknown as string }),
    /ignored a "retry" signal: retry prompt must be a string, got 42/,
  );
});

test('a cancel signal whose reason is an object is ignored with a warning', { timeout: 180_000 }, async () => {
  await attackThenCancel(
    (h) => h.signal(cancelSignal, { reason: { nested: true } as unknown as string }),
    /ignored a "cancel" signal: cancel reason must be a string/,
  );
});

test(
  'raiseBudget with NaN: the update is rejected with a reason, the signal ignored',
  { timeout: 180_000 },
  async () => {
    await attackThenCancel(async (h) => {
      await assert.rejects(
        h.executeUpdate(raiseBudgetUpdate, { args: [{ maxTurnsPerStep: Number.NaN }] }),
        (err: Error) =>
          /budget\.maxTurnsPerStep must be a finite number above 0/.test(String((err.cause as Error)?.message)),
      );
      await h.signal(raiseBudgetSignal, { maxTurnsPerStep: Number.NaN });
    }, /ignored a "raiseBudget" signal: budget\.maxTurnsPerStep must be a finite number above 0/);
  },
);
