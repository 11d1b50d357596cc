/** The StepGateInterpreter, pure (seed 004 §4): intent, aliases, target, handoff, failFast and its fallback. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { interpretGate } from '../../../src/workflows/flow/gate-interpreter.js';
import { makeStep } from './step-fixtures.js';

const step = makeStep(
  'continuation.work',
  'work',
  {},
  {
    targetField: 'next_action.target',
    handoffFields: ['analysis.note', 'verdict'],
  },
);

test('the intent is read at intentField; target and declared handoff fields come along', () => {
  const gate = interpretGate(step, {
    next_action: { action: 'jump', target: 'closure.done' },
    analysis: { note: 'n', secret: 's' },
    verdict: 'ok',
  });
  assert.deepEqual(gate, {
    ok: true,
    intent: 'jump',
    target: 'closure.done',
    handoff: { note: 'n', verdict: 'ok' },
    warnings: [],
  });
});

test('synonyms are normalised, case and spaces aside', () => {
  const intentOf = (action: string) => {
    const g = interpretGate(step, { next_action: { action }, analysis: { note: 'n' }, verdict: 'v' });
    return g.ok ? g.intent : g.reason;
  };
  assert.equal(intentOf(' Continue '), 'next');
  assert.equal(intentOf('retry'), 'repeat');
  assert.equal(intentOf('NEXT'), 'next');
});

test('a missing handoff field is a warning, not a failure', () => {
  const gate = interpretGate(step, { next_action: { action: 'next' } });
  assert.ok(gate.ok);
  if (gate.ok)
    assert.deepEqual(gate.warnings, [
      '[StepFlow] step "continuation.work": handoff field "analysis.note" missing in output',
      '[StepFlow] step "continuation.work": handoff field "verdict" missing in output',
    ]);
});

test('failFast (default): a missing or disallowed intent stops with a reason naming step and field', () => {
  const missing = interpretGate(step, {});
  assert.deepEqual(missing, {
    ok: false,
    reason: 'step "continuation.work": no intent at "next_action.action" (structuredGate.failFast is true)',
  });
  const disallowed = interpretGate(step, { next_action: { action: 'escalate' } });
  assert.equal(disallowed.ok, false);
  if (!disallowed.ok)
    assert.match(disallowed.reason, /intent "escalate" is not one of \[next, repeat, jump, handoff\]/);
});

test('failFast false: fallbackIntent, else next, else the first allowed; a SpecViolation warning', () => {
  const withFallback = makeStep('continuation.work', 'work', {}, { failFast: false, fallbackIntent: 'repeat' });
  const g1 = interpretGate(withFallback, { next_action: { action: 'fly' } });
  assert.ok(g1.ok);
  if (g1.ok) {
    assert.equal(g1.intent, 'repeat');
    assert.match(g1.warnings[0] ?? '', /^\[StepFlow\]\[SpecViolation\] step "continuation.work": intent "fly"/);
  }
  const noFallback = makeStep('continuation.work', 'work', {}, { failFast: false });
  const g2 = interpretGate(noFallback, {});
  assert.ok(g2.ok && g2.intent === 'next');
  const closure = makeStep('closure.done', 'closure', {}, { failFast: false });
  const g3 = interpretGate(closure, {});
  assert.ok(g3.ok && g3.intent === 'closing', 'the first allowed when next is not allowed');
});
