/**
 * Prices per model from the table of contracts/models.ts: a run on Sonnet 5.5 costs what
 * the price list says, Haiku 5.5 bills a long prompt at its higher band, snapshot and 1M
 * ids price as their model, and an unknown model is priced fail-closed with a notice naming it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { costUsd, priceFor, unknownModelNotice } from '../../../src/activities/model/pricing.js';
import type { Usage } from '../../../src/contracts/usage.js';

const MTOK = 1_000_000;
const usage = (inputTokens: number, outputTokens: number, cacheReadTokens = 0, cacheWriteTokens = 0): Usage => ({
  inputTokens,
  outputTokens,
  cacheReadTokens,
  cacheWriteTokens,
});

test("today's line-up at the price list's rates", () => {
  // Sonnet 5.5: $2 input, $10 output, $2.50 cache write, $0.10 cache read per MTok.
  assert.equal(costUsd(usage(MTOK, MTOK, MTOK, MTOK), 'claude-sonnet-5-5'), 2 + 10 + 0.1 + 2.5);
  assert.equal(costUsd(usage(MTOK, MTOK), 'claude-opus-5-5'), 4 + 20);
  assert.equal(costUsd(usage(0, 0, MTOK, MTOK), 'claude-opus-5-5'), 0.2 + 5);
  assert.equal(costUsd(usage(MTOK, MTOK), 'claude-fable-5-2'), 8 + 40);
  assert.ok(Math.abs(costUsd(usage(50_000, 1000, 40_000, 10_000), 'claude-haiku-5-5') - 0.00715) < 1e-12);
});

test('Haiku 5.5 bills a prompt over 100 000 tokens at its long band, every token of it', () => {
  const short = costUsd(usage(60_000, 1000, 40_000, 0), 'claude-haiku-5-5');
  const long = costUsd(usage(60_000, 1000, 40_001, 0), 'claude-haiku-5-5');
  assert.ok(Math.abs(short - (60_000 * 0.1 + 1000 * 0.5 + 40_000 * 0.01) / MTOK) < 1e-12);
  assert.ok(Math.abs(long - (60_000 * 0.5 + 1000 * 2.5 + 40_001 * 0.05) / MTOK) < 1e-12);
  assert.equal(priceFor('claude-haiku-5-5', undefined, 150_000).input, 0.5);
});

test('snapshot dates and the 1M suffix price as their model', () => {
  assert.deepEqual(priceFor('claude-haiku-4-5-20251001'), priceFor('claude-haiku-4-5'));
  assert.deepEqual(priceFor('claude-opus-5-5[1m]'), priceFor('claude-opus-5-5'));
  assert.equal(unknownModelNotice('claude-sonnet-5-5'), undefined);
});

test('an unknown model is priced as the most expensive one, with a notice naming it', () => {
  assert.equal(priceFor('claude-opus-9').output, 75);
  assert.equal(priceFor('claude-opus-5-7').output, 75, 'a newer minor version is not priced by its family');
  assert.match(
    unknownModelNotice('claude-opus-9') ?? '',
    /^model claude-opus-9 has no price; .* claude-opus-4-1 \(\$15 input, \$75 output/,
  );
  const table = { 'claude-x': { input: 1, output: 1, cacheRead: 1, cacheWrite: 1 } };
  assert.equal(costUsd(usage(MTOK, MTOK, MTOK, MTOK), 'claude-x', table), 4);
  assert.equal(unknownModelNotice('claude-x', table), undefined);
});
