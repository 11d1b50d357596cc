/**
 * The run budget is fail-closed: a run that would exceed its token budget pauses as
 * "budget-exhausted" with its state kept, and continues when an operator raises the
 * budget through the `raiseBudget` update (or signal).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { DEMO_DIR } from '../../src/dev/sample-repo.js';
import { totalTokens } from '../../src/contracts/usage.js';
import type { RunProgress } from '../../src/contracts/run.js';
import { progressQuery, raiseBudgetUpdate } from '../../src/workflows/run/messages.js';
import { untilParked } from '../helpers/parked.js';
import { runScenario } from '../helpers/run-scenario.js';
import { teardownEnv } from '../helpers/temporal-env.js';
import { until } from '../helpers/until.js';

after(teardownEnv);

/** The run's progress once it pauses for its budget or ends, each phase seen passed to `seen`. */
function pausedOrEnded(handle: WorkflowHandle, seen: (phase: string) => void = () => undefined): Promise<RunProgress> {
  return until(
    'the run to pause for its budget (or end)',
    async () => {
      const p = await handle.query(progressQuery).catch(() => undefined);
      if (p) seen(p.phase);
      return p?.phase === 'budget-exhausted' || p?.phase === 'completed' || p?.phase === 'failed' ? p : undefined;
    },
    180_000,
    100,
  );
}

test(
  'a token budget pauses the run before it is exceeded; raising it resumes the run',
  { timeout: 180_000 },
  async () => {
    const phases = new Set<string>();
    let pausedAt: { tokens: number; step: string } | undefined;
    const { result } = await runScenario({
      session: join(DEMO_DIR, 'session.json'),
      input: { budget: { maxTokens: 3000 } },
      during: async (handle) => {
        const p = await pausedOrEnded(handle, (phase) => phases.add(phase));
        if (p.phase !== 'budget-exhausted') return;
        pausedAt = { tokens: p.tokensTotal, step: p.stepId };
        await untilParked(handle, 'the budget pause');
        const still = await handle.query(progressQuery);
        assert.equal(still.phase, 'budget-exhausted', 'the run stays paused until the budget is raised');
        const budget = await handle.executeUpdate(raiseBudgetUpdate, { args: [{ maxTokens: 200_000 }] });
        assert.equal(budget.maxTokens, 200_000);
      },
    });
    assert.ok(pausedAt, `the run paused (phases seen: ${[...phases].join(', ')})`);
    assert.ok(pausedAt.tokens <= 3000, `paused before exceeding the budget (${pausedAt.tokens} tokens)`);
    assert.equal(result.outcome, 'success', result.reason);
    assert.ok(totalTokens(result.usage) > 3000, 'it went on after the raise');
  },
);

test(
  'a budget nobody raises within the pause timeout ends the run stopped: budget, with no boundary effect',
  { timeout: 180_000 },
  async () => {
    const { result } = await runScenario({
      session: join(DEMO_DIR, 'session.json'),
      input: { budget: { maxTokens: 3000 }, budgetPauseTimeoutMs: 1500 },
    });
    assert.equal(result.outcome, 'failed');
    assert.equal(result.code, 'BUDGET_EXHAUSTED');
    assert.match(result.reason, /^stopped: budget — .*not raised within 1\.5 s/);
    assert.equal(result.boundary, undefined);
  },
);

test('raiseBudget rejects a malformed budget before it reaches history', { timeout: 120_000 }, async () => {
  await runScenario({
    session: join(DEMO_DIR, 'session.json'),
    during: async (handle) => {
      await assert.rejects(handle.executeUpdate(raiseBudgetUpdate, { args: [{ maxTokens: -5 }] }), (err: Error) =>
        /finite number above 0/.test(String((err.cause as Error | undefined)?.message)),
      );
    },
  });
});

test(
  'the soft limit asks; an extension stops at the hard limit, which ends the run at once with its work kept',
  { timeout: 180_000 },
  async () => {
    let raised: number | undefined;
    const { result } = await runScenario({
      session: join(DEMO_DIR, 'session.json'),
      input: { budget: { maxUsd: 0.00001, hardMaxUsd: 0.00002 } },
      during: async (handle) => {
        const p = await pausedOrEnded(handle);
        if (p.phase === 'budget-exhausted')
          raised = (await handle.executeUpdate(raiseBudgetUpdate, { args: [{ maxUsd: 5 }] })).maxUsd;
      },
    });
    assert.equal(raised, 0.00002, 'the extension was capped at the hard limit');
    assert.equal(result.outcome, 'failed');
    assert.equal(result.code, 'BUDGET_EXHAUSTED');
    assert.match(
      result.reason,
      /(reached the hard limit of \$0\.00002|\$0\.00002 was left).*, which no extension passes/,
    );
    assert.equal(result.boundary, undefined, 'nothing delivered');
  },
);
