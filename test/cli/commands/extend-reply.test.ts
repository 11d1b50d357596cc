/** `extend` adds to the limit (or to what was spent, when there is none); `reply` takes its text after the flags. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boundLimit, extendedBudget } from '../../../src/cli/commands/extend-reply.js';
import { COMMANDS } from '../../../src/cli/flags/command-specs.js';
import { parseFlags } from '../../../src/cli/flags/parse-flags.js';

test('extend adds the amount to the current limit', () => {
  const progress = { budget: { maxUsd: 2, maxTokens: 3000 }, costUsd: 2.01, tokensTotal: 2900 };
  assert.deepEqual(extendedBudget(progress, { maxUsd: 5 }), { maxUsd: 7 });
  assert.deepEqual(extendedBudget(progress, { maxTokens: 1000 }), { maxTokens: 4000 });
  assert.deepEqual(extendedBudget(progress, { maxUsd: 0.1, maxTokens: 1 }), { maxUsd: 2.1, maxTokens: 3001 });
});

test('without a limit, extend adds to what was spent', () => {
  assert.deepEqual(extendedBudget({ costUsd: 1.23456, tokensTotal: 10 }, { maxUsd: 1, maxTokens: 5 }), {
    maxUsd: 2.2346,
    maxTokens: 15,
  });
});

test('reply: the words after the flags are the text; other commands refuse them', () => {
  const flags = parseFlags(COMMANDS['reply']!, ['--issue', '3', 'use', 'v2', 'please']);
  assert.equal(flags['text'], 'use v2 please');
  assert.equal(parseFlags(COMMANDS['reply']!, ['--issue', '3', '--text', 'v2'])['text'], 'v2');
  assert.throws(() => parseFlags(COMMANDS['status']!, ['--issue', '3', 'extra']), /unexpected argument "extra"/);
  assert.throws(
    () => parseFlags(COMMANDS['retry']!, ['--issue', '3', 'try v2']),
    /unexpected argument "try v2" \(flags start with --; text goes in --prompt/,
  );
});

test('which limit stopped the run, from the pause reason', () => {
  assert.equal(boundLimit('token budget exhausted: 10 tokens used in this step'), 'tokens');
  assert.equal(boundLimit('2900 tokens reached the budget of 3000'), 'tokens');
  assert.equal(boundLimit('USD budget exhausted: $1 spent in this step, $0.5 was left for the run'), 'usd');
  assert.equal(boundLimit('cost $1.0000 reached the budget of $1'), 'usd');
  assert.equal(boundLimit('the budget is exhausted'), undefined);
});
