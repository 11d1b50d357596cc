import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { VerdictSpec } from '../../../src/contracts/definition.js';
import {
  evaluateVerdict,
  verdictNeeds,
  type VerdictInput,
} from '../../../src/workflows/completion/evaluate-verdict.js';

const base: VerdictInput = {
  iteration: 3,
  stepId: 'closure.issue',
  stepKind: 'closure',
  output: {},
  assistantText: '',
  closingValidated: false,
  checkCount: 0,
};
const spec = (type: VerdictSpec['type'], config: VerdictSpec['config'] = {}): VerdictSpec => ({ type, config });

test('stepMachine: done only when a closing was validated', () => {
  assert.equal(evaluateVerdict(spec('stepMachine'), base).done, false);
  const closingUnvalidated = evaluateVerdict(spec('stepMachine'), {
    ...base,
    intent: 'closing',
    output: { status: 'completed' },
  });
  assert.equal(closingUnvalidated.done, false);
  assert.match(closingUnvalidated.reason, /not passed yet/);
  const done = evaluateVerdict(spec('stepMachine'), { ...base, intent: 'closing', closingValidated: true });
  assert.deepEqual(done, {
    done: true,
    reason: 'Closure step closure.issue signalled closing and the completion conditions passed.',
  });
});

test('externalState: done when the issue is closed; unknown counts as open', () => {
  assert.equal(evaluateVerdict(spec('externalState'), { ...base, externalIssueState: 'closed' }).done, true);
  assert.equal(evaluateVerdict(spec('externalState'), { ...base, externalIssueState: 'open' }).done, false);
  assert.match(evaluateVerdict(spec('externalState'), base).reason, /unknown/);
});

test('iterationBudget: done at maxIterations (default 100)', () => {
  assert.equal(evaluateVerdict(spec('iterationBudget', { maxIterations: 3 }), base).done, true);
  const early = evaluateVerdict(spec('iterationBudget', { maxIterations: 5 }), base);
  assert.deepEqual(early, { done: false, reason: '2 of 5 iterations remain.' });
  assert.equal(evaluateVerdict(spec('iterationBudget'), { ...base, iteration: 99 }).done, false);
  assert.equal(evaluateVerdict(spec('iterationBudget'), { ...base, iteration: 100 }).done, true);
});

test('keywordSignal: keyword in the assistant text or the structured output (default TASK_COMPLETE)', () => {
  assert.equal(
    evaluateVerdict(spec('keywordSignal', { verdictKeyword: 'ALL_DONE' }), {
      ...base,
      assistantText: 'Work is ALL_DONE now',
    }).done,
    true,
  );
  assert.equal(
    evaluateVerdict(spec('keywordSignal', { verdictKeyword: 'ALL_DONE' }), { ...base, output: { note: 'ALL_DONE' } })
      .done,
    true,
  );
  assert.equal(evaluateVerdict(spec('keywordSignal'), { ...base, assistantText: 'TASK_COMPLETE' }).done, true);
  const no = evaluateVerdict(spec('keywordSignal', { verdictKeyword: 'ALL_DONE' }), {
    ...base,
    assistantText: 'not yet',
  });
  assert.deepEqual(no, { done: false, reason: 'The keyword ALL_DONE has not appeared in iteration 3.' });
});

test('structuredSignal: signal/type/status plus requiredFields (object equality, array presence)', () => {
  const s = spec('structuredSignal', { signalType: 'review-done' });
  assert.equal(evaluateVerdict(s, { ...base, output: { signal: 'review-done' } }).done, true);
  assert.equal(evaluateVerdict(s, { ...base, output: { type: 'review-done' } }).done, true);
  assert.equal(evaluateVerdict(s, { ...base, output: { status: 'completed' } }).done, true);
  assert.equal(evaluateVerdict(s, { ...base, output: { signal: 'other' } }).done, false);

  const eq = spec('structuredSignal', {
    signalType: 'review-done',
    requiredFields: { verdict: 'approved', 'meta.checks': { a: 1, b: [1, 2] } },
  });
  assert.equal(
    evaluateVerdict(eq, {
      ...base,
      output: { signal: 'review-done', verdict: 'approved', meta: { checks: { b: [1, 2], a: 1 } } },
    }).done,
    true,
  );
  const wrong = evaluateVerdict(eq, {
    ...base,
    output: { signal: 'review-done', verdict: 'rejected', meta: { checks: { a: 1, b: [1, 2] } } },
  });
  assert.equal(wrong.done, false);
  assert.match(wrong.reason, /verdict should be "approved" but is "rejected"/);

  const presence = spec('structuredSignal', { signalType: 'x', requiredFields: ['summary', 'evidence.tests'] });
  assert.equal(
    evaluateVerdict(presence, { ...base, output: { signal: 'x', summary: 's', evidence: { tests: false } } }).done,
    true,
  );
  assert.match(
    evaluateVerdict(presence, { ...base, output: { signal: 'x', summary: 's' } }).reason,
    /evidence.tests is missing/,
  );
});

test('checkBudget: done at maxChecks (default 10)', () => {
  assert.equal(evaluateVerdict(spec('checkBudget', { maxChecks: 2 }), { ...base, checkCount: 2 }).done, true);
  assert.equal(evaluateVerdict(spec('checkBudget', { maxChecks: 2 }), { ...base, checkCount: 1 }).done, false);
  assert.equal(evaluateVerdict(spec('checkBudget'), { ...base, checkCount: 10 }).done, true);
});

test('custom: uses the handler answer; missing answer is not done', () => {
  assert.deepEqual(
    evaluateVerdict(spec('custom', { handlerPath: 'h.ts' }), {
      ...base,
      custom: { done: true, reason: 'Release published.' },
    }),
    { done: true, reason: 'Release published.' },
  );
  assert.equal(evaluateVerdict(spec('custom', { handlerPath: 'h.ts' }), base).done, false);
});

const keyword: VerdictSpec = spec('keywordSignal', { verdictKeyword: 'SHIP_IT' });
const budget: VerdictSpec = spec('iterationBudget', { maxIterations: 3 });
const checks: VerdictSpec = spec('checkBudget', { maxChecks: 5 });

test('composite and: children receive the same input (iteration, text), all must be done', () => {
  const and: VerdictSpec = { type: 'composite', config: {}, operator: 'and', children: [keyword, budget] };
  const done = evaluateVerdict(and, { ...base, assistantText: 'SHIP_IT' });
  assert.equal(done.done, true);
  assert.equal(done.children?.length, 2);
  assert.match(done.reason, /^All 2 conditions are met: /);
  const notYet = evaluateVerdict(and, { ...base, iteration: 3, assistantText: 'nope' });
  assert.equal(notYet.done, false);
  assert.match(notYet.reason, /^1 of 2 conditions are not met yet: The keyword SHIP_IT has not appeared/);
});

test('composite or: any child done; all children evaluated', () => {
  const or: VerdictSpec = { type: 'composite', config: {}, operator: 'or', children: [keyword, checks, budget] };
  const d = evaluateVerdict(or, { ...base, iteration: 1, checkCount: 5 });
  assert.equal(d.done, true);
  assert.equal(d.children?.length, 3);
  assert.match(d.reason, /check budget is used up/);
  assert.equal(evaluateVerdict(or, { ...base, iteration: 1 }).done, false);
});

test('composite first: the first done child decides with its reason, later ones are not evaluated', () => {
  const first: VerdictSpec = { type: 'composite', config: {}, operator: 'first', children: [keyword, budget, checks] };
  const d = evaluateVerdict(first, { ...base, iteration: 3, checkCount: 9 });
  assert.equal(d.done, true);
  assert.equal(d.reason, 'The iteration budget is used up (3 of 3 iterations).');
  assert.equal(d.children?.length, 2);
  const none = evaluateVerdict(first, { ...base, iteration: 1 });
  assert.equal(none.done, false);
  assert.equal(none.children?.length, 3);
});

test('composite nests and reports an empty list as never done', () => {
  const nested: VerdictSpec = {
    type: 'composite',
    config: {},
    operator: 'and',
    children: [{ type: 'composite', config: {}, operator: 'or', children: [keyword, checks] }, budget],
  };
  assert.equal(evaluateVerdict(nested, { ...base, checkCount: 5 }).done, true);
  assert.equal(evaluateVerdict({ type: 'composite', config: {}, operator: 'or', children: [] }, base).done, false);
});

test('verdictNeeds looks through composites', () => {
  assert.deepEqual(verdictNeeds(spec('stepMachine')), { externalState: false });
  assert.deepEqual(verdictNeeds(spec('externalState')), { externalState: true });
  const mixed: VerdictSpec = {
    type: 'composite',
    config: {},
    operator: 'first',
    children: [
      budget,
      {
        type: 'composite',
        config: {},
        operator: 'and',
        children: [spec('externalState'), spec('custom', { handlerPath: 'verdict.ts' })],
      },
    ],
  };
  assert.deepEqual(verdictNeeds(mixed), { externalState: true, customHandler: 'verdict.ts' });
});
