/**
 * The payload checks every signal/update handler runs before it touches run state:
 * anything an operator (or a script, or the agent) can send must turn into a reason,
 * never into a throw inside a handler or a switched-off budget cap.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkAnswerArgs,
  checkBudgetArgs,
  checkCancelArgs,
  checkRetryArgs,
  describePayload,
  MAX_RETRY_PROMPT_CHARS,
  validateBudgetUpdate,
} from '../../../src/workflows/run/message-checks.js';

test('retry accepts nothing, an empty object, or a string prompt; blank counts as none', () => {
  assert.deepEqual(checkRetryArgs(undefined), { ok: true, value: {} });
  assert.deepEqual(checkRetryArgs(null), { ok: true, value: {} });
  assert.deepEqual(checkRetryArgs({}), { ok: true, value: {} });
  assert.deepEqual(checkRetryArgs({ prompt: '  ' }), { ok: true, value: {} });
  assert.deepEqual(checkRetryArgs({ prompt: 'try the other file' }), {
    ok: true,
    value: { prompt: 'try the other file' },
  });
});

test('retry rejects a prompt that is not a string, too long, or arguments that are not an object', () => {
  for (const bad of [{ prompt: 42 }, { prompt: { text: 'x' } }, { prompt: ['a'] }, 'just a string', 7, [1]]) {
    const checked = checkRetryArgs(bad);
    assert.equal(checked.ok, false, `rejects ${JSON.stringify(bad)}`);
  }
  const long = checkRetryArgs({ prompt: 'x'.repeat(MAX_RETRY_PROMPT_CHARS + 1) });
  assert.ok(!long.ok && /limit is 32000/.test(long.reason), JSON.stringify(long));
  const typed = checkRetryArgs({ prompt: 42 });
  assert.ok(!typed.ok && typed.reason === 'retry prompt must be a string, got 42', JSON.stringify(typed));
});

test('cancel accepts a string reason or none and rejects anything else', () => {
  assert.deepEqual(checkCancelArgs(undefined), { ok: true, value: {} });
  assert.deepEqual(checkCancelArgs({ reason: 'wrong issue' }), { ok: true, value: { reason: 'wrong issue' } });
  for (const bad of [{ reason: { nested: true } }, { reason: 5 }, { reason: 'x'.repeat(5000) }, 'stop'])
    assert.equal(checkCancelArgs(bad).ok, false, `rejects ${describePayload(bad)}`);
});

test('raiseBudget accepts finite positive numbers only', () => {
  assert.deepEqual(checkBudgetArgs({ maxTokens: 200_000 }), { ok: true, value: { maxTokens: 200_000 } });
  assert.deepEqual(checkBudgetArgs({ maxUsd: 2.5, maxTurnsPerStep: 40 }), {
    ok: true,
    value: { maxUsd: 2.5, maxTurnsPerStep: 40 },
  });
  const cases: unknown[] = [
    { maxTokens: Number.NaN },
    { maxTokens: Number.POSITIVE_INFINITY },
    { maxUsd: -1 },
    { maxUsd: 0 },
    { maxTokens: '1000' },
    { maxTokens: null },
    { maxTurnsPerStep: 2.5 },
    { maxTokens: 1e300 },
    { maxTokens: 10, turnCap: 3 },
    {},
    null,
    undefined,
    [{ maxTokens: 1 }],
    42,
  ];
  for (const bad of cases) {
    const checked = checkBudgetArgs(bad);
    assert.equal(checked.ok, false, `rejects ${describePayload(bad)}`);
    assert.throws(() => validateBudgetUpdate(bad), /budget|raiseBudget/);
  }
  const nan = checkBudgetArgs({ maxTokens: Number.NaN });
  assert.ok(!nan.ok && nan.reason === 'budget.maxTokens must be a finite number above 0, got NaN', JSON.stringify(nan));
});

test('describePayload is short even for a huge or circular payload', () => {
  assert.ok(describePayload({ prompt: 'x'.repeat(10_000) }).length < 120);
  const circular: Record<string, unknown> = {};
  circular['self'] = circular;
  assert.equal(describePayload(circular), 'object');
});

test('answer needs a non-blank author and text, bounded; both are trimmed', () => {
  assert.deepEqual(checkAnswerArgs({ author: ' ann ', text: ' use v2 ' }), {
    ok: true,
    value: { author: 'ann', text: 'use v2' },
  });
  for (const bad of [undefined, 'v2', { text: 'v2' }, { author: 'ann', text: ' ' }, { author: 1, text: 'v2' }]) {
    assert.equal(checkAnswerArgs(bad).ok, false, `rejects ${describePayload(bad)}`);
  }
  assert.equal(checkAnswerArgs({ author: 'ann', text: 'x'.repeat(20_000) }).ok, false);
});
