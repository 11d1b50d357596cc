/**
 * Stage 3 of the Completion loop tells the model why (issue 27 item 3): after a
 * validated `closing` the completion type does not accept, the next model request
 * carries the verdict's retry prompt (built from the agent's retry template, else the
 * built-in fallback), added to the step's own prompt; and a retry prompt survives a
 * schema failure of the step that carried it. Real runs against the offline model
 * server; a rule that matches only a request containing the reason is the inspection.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunResult } from '../../../src/contracts/run.js';
import { runScenario } from '../../helpers/run-scenario.js';
import { teardownEnv } from '../../helpers/temporal-env.js';
import {
  budgetAgent,
  build,
  buildToldWhyAgain,
  closing,
  garbageAfterVerdict,
  plan,
  REASON,
  rule,
} from './verdict-retry-agent.js';

after(teardownEnv);

function trail(result: RunResult): string[] {
  return result.steps.map((s) => `${s.iteration}:${s.stepId}:${s.intent ?? ''}`);
}

test("after a rejected verdict, the model's next request says why (the agent's retry template)", async () => {
  const agentDir = await budgetAgent('VERDICT-RETRY {{reason}} ({{verdict}}; back at {{nextStep}})\n');
  const toldWhy = rule(
    'build-told-why',
    ['Step continuation.build', `VERDICT-RETRY ${REASON} (iterationBudget; back at continuation.build)`],
    'continuation.build',
    { next_action: { action: 'handoff' } },
  );
  const { result, model } = await runScenario({
    session: { name: 'told-why', rules: [toldWhy, plan, build, closing] },
    agentDir,
  });
  assert.equal(result.outcome, 'success', result.reason);
  // 1 plan, 2 build, 3 closing (not yet), 4 build (told why; budget met), 5 closing.
  assert.deepEqual(trail(result), [
    '1:initial.plan:next',
    '2:continuation.build:handoff',
    '3:closure.done:closing',
    '4:continuation.build:handoff',
    '5:closure.done:closing',
  ]);
  assert.equal(model.stats().byRule['build-told-why'], 1, JSON.stringify(model.stats().log));
  assert.equal(model.stats().byRule['build'], 1, 'the step prompt before the verdict carried no reason');
});

test('without a template of its own the agent still tells the model why (fallback text with the reason)', async () => {
  const agentDir = await budgetAgent();
  const toldWhy = rule('build-told-why', ['Step continuation.build', REASON], 'continuation.build', {
    next_action: { action: 'handoff' },
  });
  const { result, model } = await runScenario({
    session: { name: 'told-why-builtin', rules: [toldWhy, plan, build, closing] },
    agentDir,
  });
  assert.equal(result.outcome, 'success', result.reason);
  assert.equal(model.stats().byRule['build-told-why'], 1, JSON.stringify(model.stats().log));
});

test('a retry prompt survives a schema failure of the step that carried it', async () => {
  const agentDir = await budgetAgent();
  const { result, model } = await runScenario({
    session: { name: 'survives', rules: [garbageAfterVerdict, buildToldWhyAgain, plan, build, closing] },
    agentDir,
    // The schema failure spends an iteration: room above the budget of 4.
    input: { maxIterations: 10 },
  });
  assert.equal(result.outcome, 'success', `${result.reason} ${JSON.stringify(model.stats().log)}`);
  assert.equal(model.stats().byRule['garbage'], 2);
  assert.equal(model.stats().byRule['build-told-why-again'], 1, 'the rerun still said why');
  assert.deepEqual(trail(result), [
    '1:initial.plan:next',
    '2:continuation.build:handoff',
    '3:closure.done:closing',
    '5:continuation.build:handoff',
    '6:closure.done:closing',
  ]);
});
