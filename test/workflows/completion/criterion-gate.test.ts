/**
 * The criterion gate's limits, pure (issue 27 item 4): the iteration cap is exact unless
 * the agent configures `closureGrace`, and only then at a closure step once the
 * criterion is met.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunContext } from '../../../src/workflows/run/run-context.js';
import type { RunSession } from '../../../src/workflows/run/state/run-session.js';
import { closureGrace, withinClosureGrace } from '../../../src/workflows/completion/criterion-gate.js';
import { makeDefinition, makeStep } from '../flow/step-fixtures.js';

const steps = [makeStep('initial.plan', 'work'), makeStep('closure.done', 'closure')];

function at(grace: number | undefined, stepId: string, iteration: number, criterionMet?: string) {
  const definition = makeDefinition(steps, grace === undefined ? {} : { closureGrace: grace });
  const ctx = { definition, maxIterations: 3 } as unknown as RunContext;
  const session = { state: { stepId, iteration, ...(criterionMet ? { criterionMet } : {}) } } as unknown as RunSession;
  return withinClosureGrace(ctx, session);
}

test('closureGrace: the configured integer, default 0', () => {
  assert.equal(closureGrace(makeDefinition(steps)), 0);
  assert.equal(closureGrace(makeDefinition(steps, { closureGrace: 2 })), 2);
});

test('with a grace, a closure step past the cap runs while iteration < cap + grace', () => {
  assert.equal(at(2, 'closure.done', 3, 'met'), true);
  assert.equal(at(2, 'closure.done', 4, 'met'), true);
});

test('no grace before the criterion is met, nor at a work step', () => {
  assert.equal(at(2, 'closure.done', 3), false);
  assert.equal(at(2, 'initial.plan', 3, 'met'), false);
});

test('never past the old grace of 3, whatever the config says about fewer', () => {
  assert.equal(at(0, 'closure.done', 6, 'met'), false);
  assert.equal(at(1, 'closure.done', 7, 'met'), false);
});
