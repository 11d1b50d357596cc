/**
 * The one path-containment check (src/definition/load/path-inside.ts): a path is inside
 * its parent, itself, and anything under it; siblings that share a prefix and `..` walks
 * are not; a child whose name starts with `..` is.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isInside, isStrictlyInside } from '../../../src/definition/load/path-inside.js';

test('a path under the parent, or the parent itself, is inside', () => {
  assert.equal(isInside('/a', '/a/b'), true);
  assert.equal(isInside('/a', '/a/b/c'), true);
  assert.equal(isInside('/a', '/a'), true);
  assert.equal(isInside('/a/', '/a'), true);
  assert.equal(isInside('/a', '/a/b/../c'), true);
});

test('a sibling sharing a prefix, the parent of the parent and `..` walks are not inside', () => {
  assert.equal(isInside('/a', '/ab'), false);
  assert.equal(isInside('/a', '/'), false);
  assert.equal(isInside('/a/b', '/a'), false);
  assert.equal(isInside('/a', '/a/../b'), false);
  assert.equal(isInside('/a', '/a/b/../../c'), false);
});

test('a child whose name starts with `..` is inside', () => {
  assert.equal(isInside('/a', '/a/..b'), true);
  assert.equal(isInside('/a', '/a/...'), true);
  assert.equal(isStrictlyInside('/a', '/a/..cache'), true);
});

test('relative paths are resolved against the working directory', () => {
  assert.equal(isInside('.', 'src'), true);
  assert.equal(isInside('src', '..'), false);
  assert.equal(isInside('src', 'src/../test'), false);
});

test('strictly inside excludes the parent itself', () => {
  assert.equal(isStrictlyInside('/a', '/a'), false);
  assert.equal(isStrictlyInside('/a', '/a/'), false);
  assert.equal(isStrictlyInside('/a', '/a/b'), true);
  assert.equal(isStrictlyInside('/a', '/ab'), false);
});
