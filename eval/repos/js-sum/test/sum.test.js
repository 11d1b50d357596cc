import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sum } from '../src/sum.js';

test('sum of zeros', () => {
  assert.equal(sum(0, 0), 0);
});
