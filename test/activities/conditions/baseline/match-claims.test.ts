/**
 * Matching the closure's claims to pre-existing failures (issue 37): only failures that
 * block by no reason of their own need one; a claim names a test by any of its names; a
 * blocking failure cannot be claimed away.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchClaims } from '../../../../src/activities/conditions/baseline/match-claims.js';

const pytest = { name: 'tests/test_six.py::test_b[1]', file: 'tests/test_six.py' };
const rust = { name: 'crate::tests::adds' };
const named = { name: 'test_named', blocks: 'named by the issue as "test_named"' };

test('unclaimed non-blocking failures are unclassified; blocking ones need no claim', () => {
  const check = matchClaims([pytest, rust, named], []);
  assert.deepEqual(check.unclassified, [pytest, rust]);
  assert.deepEqual(check.preExisting, [pytest, rust, named]);
});

test('a claim by the full id, a short name or a parametrized base name classifies the failure', () => {
  for (const name of ['tests/test_six.py::test_b[1]', 'test_b[1]', 'test_b', 'tests/test_six.py::test_b']) {
    const check = matchClaims([pytest], [{ test: name, reason: 'clock' }]);
    assert.deepEqual(check.unclassified, [], name);
    assert.deepEqual(check.preExisting, [{ ...pytest, unrelated: 'clock' }], name);
  }
  const byLastSegment = matchClaims([rust], [{ test: 'adds', reason: 'r' }]);
  assert.deepEqual(byLastSegment.unclassified, []);
});

test('a claim naming another test, or a blocking failure, classifies nothing', () => {
  const other = matchClaims([pytest], [{ test: 'test_bar', reason: 'r' }]);
  assert.deepEqual(other.unclassified, [pytest]);
  const blocking = matchClaims([named], [{ test: 'test_named', reason: 'not mine' }]);
  assert.deepEqual(blocking.preExisting, [named], 'no unrelated reason on a blocking failure');
  assert.deepEqual(blocking.unclassified, []);
});
