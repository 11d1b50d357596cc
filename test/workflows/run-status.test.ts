/**
 * The Web UI's status column tells the truth: a failed run ends FAILED (an
 * ApplicationFailure of the failure type carrying the RunResult), a run cancelled
 * through Temporal ends CANCELLED with its RunResult in the `runResult` memo, a run
 * stopped by the `cancel` signal alone (the Web UI's Signal dialog) ends the same way,
 * and readRunResult gives the result back either way.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { DEMO_DIR } from '../../src/dev/sample-repo.js';
import { loadSessionScript } from '../../src/dev/model-server/session-script.js';
import { RUN_RESULT_MEMO, runResultOf } from '../../src/contracts/run-end.js';
import { readRunResult } from '../../src/host/run-result.js';
import { runScenario } from '../helpers/run-scenario.js';
import { teardownEnv } from '../helpers/temporal-env.js';
import { until } from '../helpers/until.js';

after(teardownEnv);

const demo = loadSessionScript(join(DEMO_DIR, 'session.json'));
/** The first model turn takes 4 s, so a cancel lands while a step runs. */
const slow = {
  ...demo,
  rules: demo.rules.map((r) => (r.id === 'initial-explore' ? { ...r, respond: { ...r.respond, delayMs: 4000 } } : r)),
};

test('a failed run ends FAILED with its result as the failure detail', async () => {
  const { result, handle } = await runScenario({ session: demo, input: { maxIterations: 1 } });
  assert.equal(result.outcome, 'failed');
  assert.equal(result.code, 'MAX_ITERATIONS');
  const description = await handle.describe();
  assert.equal(description.status.name, 'FAILED');
  const err = await handle.result().then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(err instanceof WorkflowFailedError);
  assert.ok(err.cause instanceof ApplicationFailure);
  assert.equal(err.cause.type, 'MAX_ITERATIONS');
  assert.equal(runResultOf(err.cause.details ?? [])?.reason, result.reason);
  assert.deepEqual(await readRunResult(handle), result);
});

test('a run cancelled through Temporal ends CANCELLED with its result in the memo', async () => {
  const { result, handle, workflowId } = await runScenario({
    session: slow,
    during: async (h, model) => {
      await until(
        'the run to reach its first model call',
        () => (model.stats().requests > 0 ? true : undefined),
        180_000,
        100,
      );
      await h.cancel();
    },
  });
  assert.equal(result.outcome, 'cancelled', result.reason);
  assert.match(result.reason, /cancelled through Temporal/);
  const description = await handle.describe();
  assert.equal(description.status.name, 'CANCELLED', workflowId);
  assert.equal(runResultOf(description.memo?.[RUN_RESULT_MEMO])?.outcome, 'cancelled');
  assert.ok(result.worktreePath, 'the result names the kept worktree');
});

test('a run stopped by the cancel signal alone ends CANCELLED too, with its reason', async () => {
  const { result, handle, workflowId } = await runScenario({
    session: slow,
    during: async (h, model) => {
      await until(
        'the run to reach its first model call',
        () => (model.stats().requests > 0 ? true : undefined),
        180_000,
        100,
      );
      // What the Web UI's Signal dialog sends: our signal, no Temporal cancel request.
      await h.signal('cancel', { reason: 'stopped from the Signal dialog' });
    },
  });
  assert.equal(result.outcome, 'cancelled', result.reason);
  assert.equal(result.reason, 'stopped from the Signal dialog');
  const description = await handle.describe();
  assert.equal(description.status.name, 'CANCELLED', workflowId);
  assert.equal(runResultOf(description.memo?.[RUN_RESULT_MEMO])?.reason, 'stopped from the Signal dialog');
  const events = (await handle.fetchHistory()).events ?? [];
  // One request, the run's own (no grace timer waiting for somebody else's).
  assert.equal(events.filter((e) => e.workflowExecutionCancelRequestedEventAttributes).length, 1);
  assert.equal(events.filter((e) => e.timerStartedEventAttributes).length, 0);
});
