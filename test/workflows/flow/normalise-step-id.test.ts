/**
 * stepId normalisation, pure (seed 004 §3.1): the corrected output and the log line.
 * Fails when normalisation is a no-op (the run-level test cannot tell).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normaliseStepId } from '../../../src/workflows/flow/gate-interpreter.js';

test('a wrong stepId is replaced by the step being run, and the correction is logged', () => {
  const out = normaliseStepId({ stepId: 'plan-step', summary: 's' }, 'initial.plan');
  assert.deepEqual(out.output, { stepId: 'initial.plan', summary: 's' });
  assert.equal(
    out.correction,
    '[StepFlow] stepId corrected: "plan-step" -> "initial.plan" (Flow owns canonical stepId)',
  );
});

test('a right stepId, or none, is left alone with no log line', () => {
  const right = { stepId: 'initial.plan' };
  assert.deepEqual(normaliseStepId(right, 'initial.plan'), { output: right });
  const none = { summary: 's' };
  assert.deepEqual(normaliseStepId(none, 'initial.plan'), { output: none });
});

test('the input object is not changed (workflow state stays as recorded)', () => {
  const input = Object.freeze({ stepId: 'x' });
  assert.equal(normaliseStepId(input, 'y').output['stepId'], 'y');
  assert.equal(input.stepId, 'x');
});
