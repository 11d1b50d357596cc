/** StepContext, pure (seed 001): handoffs per step, replaced on repeat, and both uv- spellings. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EMPTY_STEP_CONTEXT, recordHandoff } from '../../../../src/workflows/run/state/run-state.js';
import { toPromptValue, toUvVariables } from '../../../../src/contracts/step-inputs.js';

test('a handoff is stored under its step; an empty one changes nothing', () => {
  const one = recordHandoff(EMPTY_STEP_CONTEXT, 'initial.plan', { note: 'n' });
  assert.deepEqual(one, { 'initial.plan': { note: 'n' } });
  assert.equal(recordHandoff(one, 'continuation.build', {}), one);
});

test("a repeated step's handoff replaces its previous one; other steps keep theirs", () => {
  let ctx = recordHandoff(EMPTY_STEP_CONTEXT, 'initial.plan', { note: 'old', extra: 1 });
  ctx = recordHandoff(ctx, 'verification.check', { verdict: 'ok' });
  ctx = recordHandoff(ctx, 'initial.plan', { note: 'new' });
  assert.deepEqual(ctx, { 'initial.plan': { note: 'new' }, 'verification.check': { verdict: 'ok' } });
});

test('uv variables: `<stepId>_<key>` and the dots-folded spelling; non-strings as JSON', () => {
  const ctx = recordHandoff(EMPTY_STEP_CONTEXT, 'initial.plan', { note: 'n', files: ['a', 'b'], n: 2 });
  assert.deepEqual(toUvVariables(ctx), {
    'initial.plan_note': 'n',
    initial_plan_note: 'n',
    'initial.plan_files': '["a","b"]',
    initial_plan_files: '["a","b"]',
    'initial.plan_n': '2',
    initial_plan_n: '2',
  });
  assert.equal(toPromptValue(null), 'null');
});
