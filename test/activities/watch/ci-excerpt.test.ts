/**
 * The log excerpt a failed check hands the model: timestamps and colour codes gone, a
 * short log whole, a long one cut to its first failure (with context) and its tail, within
 * the bound.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ciExcerpt, MAX_EXCERPT_CHARS } from '../../../src/activities/watch/ci-excerpt.js';

const at = '2026-11-27T05:00:00.1234567Z ';

test('a short log is kept whole, without timestamps and colour codes', () => {
  assert.equal(ciExcerpt(`${at}\u001b[31mnot ok 1\u001b[0m\r\n${at}# fail 1\n\n`), 'not ok 1\n# fail 1');
});

test('a long log: the first failure with its context and the tail, within the bound', () => {
  const lines = [
    ...Array.from({ length: 300 }, (_, i) => `${at}setup step ${i} ${'x'.repeat(40)}`),
    `${at}Error: cannot find module './sum'`,
    ...Array.from({ length: 300 }, (_, i) => `${at}later line ${i} ${'y'.repeat(40)}`),
    `${at}# fail 3`,
  ];
  const out = ciExcerpt(lines.join('\n'));
  assert.ok(out.length <= MAX_EXCERPT_CHARS, `${out.length}`);
  assert.match(out, /Error: cannot find module '.\/sum'/);
  assert.match(out, /# fail 3$/);
  assert.match(out, /… \(\d+ lines left out\)/);
  assert.doesNotMatch(out, /setup step 10 /, 'the set-up is left out');
  assert.doesNotMatch(out, /2026-11-27T/);
});

test('very long lines: the end wins', () => {
  const out = ciExcerpt(`${'z'.repeat(50_000)}\nthe summary`, 1_000);
  assert.ok(out.length <= 1_000 + 20);
  assert.match(out, /the summary$/);
});
