import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  checkFinalAnswer,
  parseFinalAnswer,
  validateStructuredOutput,
} from '../../../src/activities/model/turn-outcome.js';
import { costUsd, priceFor } from '../../../src/activities/model/pricing.js';
import { STEP_SCHEMA } from './step-fixtures.js';

const schema = STEP_SCHEMA as unknown as Record<string, unknown>;
const good = { stepId: 's', summary: 'x', next_action: { action: 'next' } };

test('parses bare JSON, a ```json fence, or prose around an object', () => {
  assert.deepEqual(parseFinalAnswer(JSON.stringify(good)), { ok: true, value: good });
  assert.deepEqual(parseFinalAnswer('```json\n' + JSON.stringify(good) + '\n```'), { ok: true, value: good });
  assert.deepEqual(parseFinalAnswer('Done.\n' + JSON.stringify(good)), { ok: true, value: good });
  assert.equal(parseFinalAnswer('nope').ok, false);
  assert.equal(parseFinalAnswer('').ok, false);
});

test('ajv issues name the pointer and what was allowed', () => {
  assert.deepEqual(validateStructuredOutput(schema, good), []);
  const issues = validateStructuredOutput(schema, { ...good, next_action: { action: 'fly' }, extra: 1 });
  assert.ok(issues.some((i) => i.startsWith('/next_action/action') && i.includes('"next"')));
  assert.ok(issues.some((i) => i.includes('"extra"')));
  assert.deepEqual(checkFinalAnswer('[1]', schema), {
    ok: false,
    issues: ['/ the final answer must be a JSON object'],
  });
  const draft2020 = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'x',
    type: 'object',
    required: ['a'],
  };
  assert.equal(validateStructuredOutput(draft2020, {}).length, 1);
  assert.equal(validateStructuredOutput(draft2020, { a: 1 }).length, 0, 'compiled once, cached by schema object');
});

test('prices by model id; unknown models priced as the most expensive', () => {
  const usage = {
    inputTokens: 1_000_000,
    outputTokens: 1_000_000,
    cacheReadTokens: 1_000_000,
    cacheWriteTokens: 1_000_000,
  };
  assert.equal(costUsd(usage, 'claude-sonnet-4-6'), 3 + 15 + 0.3 + 3.75);
  assert.equal(costUsd(usage, 'claude-haiku-4-5'), 1 + 5 + 0.1 + 1.25);
  assert.equal(priceFor('mystery-model').output, 75);
  assert.equal(costUsd(usage, 'claude-x', { 'claude-x': { input: 1, output: 1, cacheRead: 1, cacheWrite: 1 } }), 4);
});
