/**
 * Every intent of the Flow loop on the real dev server, with an upstream-vocabulary
 * fixture agent: repeat, jump (targetField), escalate, next, handoff, closing; abort;
 * both fail-fast paths (FAILED_STEP_ROUTING, FAILED_SCHEMA_RESOLUTION); the cap.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionRule } from '../../src/dev/model-server/session-script.js';
import { runScenario } from '../helpers/run-scenario.js';
import { teardownEnv } from '../helpers/temporal-env.js';

after(teardownEnv);

const AGENT = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'agents', 'intents');

function answer(id: string, step: string, iteration: number | undefined, output: Record<string, unknown>): SessionRule {
  const promptContains = iteration === undefined ? [`Step ${step}`] : [`Step ${step} · Iteration ${iteration}`];
  return { id, when: { promptContains }, respond: { json: { stepId: step, summary: id, ...output } } } as SessionRule;
}

test('repeat, jump with targetField, escalate, next, handoff and closing route as declared; handoff reaches later prompts', async () => {
  const session = {
    name: 'every intent',
    rules: [
      answer('plan-repeat', 'initial.plan', 1, { next_action: { action: 'repeat' }, analysis: { note: 'NOTE-1' } }),
      answer('plan-jump', 'initial.plan', 2, {
        next_action: { action: 'jump', target: 'verification.check' },
        analysis: { note: 'NOTE-42' },
      }),
      answer('check-escalate', 'verification.check', undefined, { next_action: { action: 'escalate' } }),
      answer('support-next', 'continuation.support', undefined, {
        stepId: 'wrong.step',
        next_action: { action: 'next' },
      }),
      {
        id: 'build-handoff',
        when: { promptContains: ['Step continuation.build', 'Note from planning: NOTE-42'] },
        respond: { json: { stepId: 'continuation.build', summary: 'built', next_action: { action: 'handoff' } } },
      } as SessionRule,
      answer('close', 'closure.done', undefined, { next_action: { action: 'closing' } }),
    ],
  };
  const { result, model } = await runScenario({ session, agentDir: AGENT, input: { maxIterations: 8 } });
  assert.equal(result.outcome, 'success', `${result.reason} ${JSON.stringify(model.stats().log)}`);
  assert.deepEqual(
    result.steps.map((s) => `${s.stepId}:${s.intent}->${s.next}`),
    [
      'initial.plan:repeat->initial.plan',
      'initial.plan:jump->verification.check',
      'verification.check:escalate->continuation.support',
      'continuation.support:next->continuation.build',
      'continuation.build:handoff->closure.done',
      'closure.done:closing->null',
    ],
  );
  assert.equal(
    model.stats().byRule['build-handoff'],
    1,
    'the namespaced handoff uv-initial.plan_note reached the prompt',
  );
  assert.deepEqual(result.handoff['initial.plan'], { note: 'NOTE-42' });
});

test('abort ends the run as failed', async () => {
  const session = {
    name: 'abort',
    rules: [
      answer('plan', 'initial.plan', undefined, { next_action: { action: 'next' }, analysis: { note: 'n' } }),
      answer('build-abort', 'continuation.build', undefined, {
        next_action: { action: 'abort', reason: 'cannot be done' },
      }),
    ],
  };
  const { result } = await runScenario({ session, agentDir: AGENT });
  assert.equal(result.outcome, 'failed');
  assert.equal(result.code, 'ABORTED');
});

test('a missing intent fails fast with FAILED_STEP_ROUTING', async () => {
  const session = {
    name: 'no intent',
    rules: [answer('plan-no-intent', 'initial.plan', undefined, { analysis: { note: 'n' } })],
  };
  const { result } = await runScenario({ session, agentDir: AGENT });
  assert.equal(result.outcome, 'failed');
  assert.equal(result.code, 'FAILED_STEP_ROUTING');
  assert.match(result.reason, /no intent at "next_action.action"/);
});

test('two consecutive schema failures end the run with FAILED_SCHEMA_RESOLUTION', async () => {
  const session = {
    name: 'bad json',
    rules: [
      {
        id: 'garbage',
        when: { promptContains: 'Step initial.plan' },
        respond: { rawText: 'this is not JSON' },
      } as SessionRule,
    ],
  };
  const { result, model } = await runScenario({ session, agentDir: AGENT });
  assert.equal(result.outcome, 'failed');
  assert.equal(result.code, 'FAILED_SCHEMA_RESOLUTION');
  assert.equal(model.stats().byRule['garbage'], 4, 'two iterations, each with one repair turn');
});

test('the iteration cap stops a run that never closes', async () => {
  const session = {
    name: 'forever',
    rules: [
      answer('plan-repeat', 'initial.plan', undefined, { next_action: { action: 'repeat' }, analysis: { note: 'n' } }),
    ],
  };
  const { result } = await runScenario({ session, agentDir: AGENT, input: { maxIterations: 3 } });
  assert.equal(result.outcome, 'failed');
  assert.equal(result.code, 'MAX_ITERATIONS');
  assert.equal(result.iterations, 3);
});
