import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slugify } from '../src/slugify.js';

test('joins words with dashes', () => {
  assert.equal(slugify('hello world'), 'hello-world');
});
