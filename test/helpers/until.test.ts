/**
 * The one polling helper: returns the first value the probe gives, and on timeout names
 * what it waited for, a function `what` read at the timeout (so it can carry what the
 * test saw meanwhile).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { until } from './until.js';

test('returns the first defined value, polling at the given interval', async () => {
  let calls = 0;
  const value = await until('the third call', () => (++calls === 3 ? 'third' : undefined), 5_000, 1);
  assert.deepEqual([value, calls], ['third', 3]);
});

test('on timeout names what it waited for; a function is read at the timeout', async () => {
  await assert.rejects(
    until('a fixed thing', () => undefined, 20, 5),
    /timed out after 20 ms waiting for a fixed thing$/,
  );
  let seen = 0;
  await assert.rejects(
    until(
      () => `a count above 1000 (saw ${seen})`,
      () => (++seen > 1000 ? seen : undefined),
      20,
      5,
    ),
    (err: Error) => /waiting for a count above 1000 \(saw ([2-9]|\d\d+)\)$/.test(err.message),
  );
});
