import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  camelWords,
  findTemplate,
  handoffVariables,
  renderTemplate,
  templateKeys,
} from '../../../src/workflows/pipeline/handoff-template.js';

test('the fixed key rule finds the upstream keys for multi-word outcomes (upstream [BUG])', () => {
  const templates = { considererHandoffDetail: 'A', detailerHandoffImpl: 'B' };
  assert.equal(findTemplate(templates, 'considerer', 'handoff-detail')?.key, 'considererHandoffDetail');
  assert.equal(findTemplate(templates, 'detailer', 'handoff-impl')?.template, 'B');
  assert.equal(camelWords('handoff_more detail.x'), 'HandoffMoreDetailX');
});

test('the literal forms still match: <agent><Outcome>, <agent>To<Outcome>, <agent>:<outcome>', () => {
  assert.equal(findTemplate({ reviewerApproved: 'x' }, 'reviewer', 'approved')?.key, 'reviewerApproved');
  assert.equal(findTemplate({ reviewerToApproved: 'x' }, 'reviewer', 'approved')?.key, 'reviewerToApproved');
  assert.equal(
    findTemplate({ 'considererHandoff-detail': 'x' }, 'considerer', 'handoff-detail')?.key,
    'considererHandoff-detail',
  );
  assert.equal(
    findTemplate({ 'considerer:handoff-detail': 'x' }, 'considerer', 'handoff-detail')?.key,
    'considerer:handoff-detail',
  );
  assert.equal(findTemplate({ otherSuccess: 'x' }, 'considerer', 'success'), undefined);
  assert.equal(findTemplate({}, 'constructor', ''), undefined, 'no prototype property is a template');
});

test('camel form comes first; keys are unique', () => {
  assert.deepEqual(templateKeys('c', 'handoff-detail'), [
    'cHandoffDetail',
    'cToHandoffDetail',
    'cHandoff-detail',
    'cToHandoff-detail',
    'c:handoff-detail',
  ]);
  assert.deepEqual(templateKeys('r', 'ok'), ['rOk', 'rToOk', 'r:ok']);
});

test('rendering: handoff values (later steps win, non-strings as JSON), pipeline facts, unknown placeholders kept', () => {
  const vars = handoffVariables(
    { 'initial.look': { summary: 'first', n: 2 }, 'closure.done': { summary: 'final', plan: { a: 1 } } },
    { issue: '7', summary: 'fact' },
  );
  assert.equal(renderTemplate('#{issue}: {summary}, {n}, {plan}, {missing}', vars), '#7: final, 2, {"a":1}, {missing}');
});
