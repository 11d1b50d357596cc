import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clamp } from '../src/clamp.js';

test('values below the range are raised to lo', () => {
  assert.equal(clamp(-5, 0, 10), 0);
});
