/** The one output capper: whole strings, streams, and the spawner helper's copy of its source. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CappedText, createOutputCap, streamMarker } from '../../../src/activities/process/capped-text.js';
import { headTail } from '../../../src/activities/tools/output-truncation.js';
import { SPAWNER_PROGRAM } from '../../../src/activities/process/spawner/spawner-program.js';

const marker = (n: number): string => `<${n}>`;

test('text within the cap is kept whole, however it arrives', () => {
  const cap = createOutputCap(10, 0.5, marker);
  assert.equal(cap.append('abc'), true);
  assert.equal(cap.append('defghij'), true);
  assert.equal(cap.text(), 'abcdefghij');
  assert.equal(cap.truncated(), false);
});

test('past the cap: the head share, the marker with the omitted count, the tail', () => {
  const cap = createOutputCap(10, 0.6, marker);
  cap.append('0123456');
  assert.equal(cap.append('789abcdefghij'), false);
  assert.equal(cap.text(), '012345<10>ghij');
  assert.equal(cap.truncated(), true);
  const chunked = createOutputCap(10, 0.6, marker);
  for (const ch of '0123456789abcdefghij') chunked.append(ch);
  assert.equal(chunked.text(), '012345<10>ghij', 'chunking does not change the result');
});

test('a head-only cap keeps the first characters', () => {
  const cap = createOutputCap(4, 1, () => '');
  cap.append('abcdefgh');
  assert.equal(cap.text(), 'abcd');
});

test('CappedText and headTail are that capper, with their markers', () => {
  const t = new CappedText(4);
  t.append('abcdefgh');
  assert.equal(t.toString(), `ab${streamMarker(4)}gh`);
  assert.equal(headTail('0123456789abcdefghij', 10), '012345\n\n[... 10 characters omitted ...]\n\nghij');
  assert.equal(headTail('short', 10), 'short');
});

test('the spawner helper embeds the same function, self-contained', () => {
  const source = createOutputCap.toString();
  assert.ok(SPAWNER_PROGRAM.includes(`const createOutputCap = (${source});`), 'by value, whatever its name');
  assert.doesNotMatch(source, /__name|require\(|import /);
  const rebuilt = new Function(`return (${source});`)() as typeof createOutputCap;
  const cap = rebuilt(10, 0.6, marker);
  cap.append('0123456789abcdefghij');
  assert.equal(cap.text(), '012345<10>ghij');
});
