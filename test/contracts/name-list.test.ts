/** Long lists of test names in lines a person reads: the first few, then how many more. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NAMES_SHOWN, nameList } from '../../src/contracts/name-list.js';
import { classifyFailures } from '../../src/activities/conditions/baseline/classify-failures.js';

test('a short list is given whole; a long one shows the first names and how many more', () => {
  assert.equal(nameList([]), '');
  assert.equal(nameList(['a', 'b']), 'a, b');
  const many = Array.from({ length: 56 }, (_, i) => `t${i}`);
  assert.equal(nameList(many), `t0, t1, t2, t3, t4, t5 (+${56 - NAMES_SHOWN} more)`);
  assert.equal(nameList(many.slice(0, NAMES_SHOWN)), many.slice(0, NAMES_SHOWN).join(', '));
});

// The verdict's reason, which the run's result and the closing comment quote.
test('a verdict over a base with 56 failures, all fixed, says so in one short line; its params keep all 56', () => {
  const names = Array.from({ length: 56 }, (_, i) => `tests/test_x.py::test_${i}`);
  const still = { name: 'tests/test_other.py::still', file: 'tests/test_other.py' };
  const base = { commit: 'c'.repeat(40), command: 'pytest', exitCode: 1, failedTests: [...names, still.name] };
  const verdict = classifyFailures([still], base, 'ignore');
  assert.match(verdict.reason, /fixed since base: tests\/test_x\.py::test_0, .*test_5 \(\+50 more\)$/);
  assert.ok(verdict.reason.length < 400, verdict.reason);
  assert.equal(verdict.fixed.length, 56);
});
