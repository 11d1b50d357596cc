/**
 * `retry` of a failed run starts a new run seeded from the failed run's last completed
 * step (contracts/resume-point.ts): here the run starts at the closure step with the
 * StepContext the failed run had built, and the closure prompt sees its handoff.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionRule } from '../../src/dev/model-server/session-script.js';
import { resumePointAfterFailure } from '../../src/contracts/resume-point.js';
import type { RunResult } from '../../src/contracts/run.js';
import { runScenario } from '../helpers/run-scenario.js';
import { teardownEnv } from '../helpers/temporal-env.js';

after(teardownEnv);

const AGENTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'agents');

test('the resume point is the step after the last completed one, with the StepContext', () => {
  const usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  const step = (stepId: string, next?: string | null) => ({
    iteration: 1,
    stepId,
    stepKind: 'work' as const,
    ...(next === undefined ? {} : { next }),
    summary: '',
    usage,
    costUsd: 0,
    turns: 1,
  });
  const failed = {
    outcome: 'failed',
    code: 'VALIDATION_ABORTED',
    reason: 'r',
    iterations: 2,
    steps: [step('initial.work', 'closure.done')],
    usage,
    costUsd: 0,
    definitionHash: 'h',
    handoff: { 'initial.work': { plan: 'p' } },
  } as unknown as RunResult;
  assert.deepEqual(resumePointAfterFailure(failed, 'run-1'), {
    stepId: 'closure.done',
    stepContext: { 'initial.work': { plan: 'p' } },
    fromRunId: 'run-1',
  });
  const stuck = { ...failed, steps: [step('initial.work')] } as RunResult;
  assert.equal(resumePointAfterFailure(stuck, 'run-1')?.stepId, 'initial.work');
  assert.equal(resumePointAfterFailure({ ...failed, steps: [] } as RunResult, 'run-1'), undefined);
});

test('a run seeded with resumeFrom starts at that step with that StepContext', async () => {
  const session = {
    name: 'resumed',
    rules: [
      {
        id: 'close',
        when: { promptContains: ['Step closure.done', 'Plan: from the failed run'] },
        respond: { json: { stepId: 'closure.done', summary: 'closed', next_action: { action: 'closing' } } },
      } as SessionRule,
    ],
  };
  const { result, model } = await runScenario({
    session,
    agentDir: join(AGENTS, 'sectioned'),
    input: {
      parameters: { topic: 'caching' },
      resumeFrom: {
        stepId: 'closure.done',
        stepContext: { 'initial.work': { plan: 'from the failed run' } },
        fromRunId: 'failed-run',
      },
    },
  });
  assert.equal(result.outcome, 'success', result.reason);
  assert.deepEqual(
    result.steps.map((s) => s.stepId),
    ['closure.done'],
  );
  assert.equal(model.stats().unmatched, 0);
});
