/**
 * uvu's console, from a real run (lukeed/dequal's `uvu -r esm test` with a planted bug, in
 * colour as npm ran it): the failure named `<suite> › <test>`, its file from the first stack
 * frame outside node_modules, the assertion and diff as excerpt, the total counted; jest's
 * and vitest's `FAIL` lines are not uvu's.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseTestFailures } from '../../../../src/activities/conditions/test-reports/parse-test-failures.js';
import { countTestsRun } from '../../../../src/activities/conditions/test-reports/tests-run.js';
import { uvuFailures } from '../../../../src/definition/ecosystems/test-runners/uvu.js';
import { fixture } from '../fixtures.js';

test('a failing uvu run: suite › test, the test file, the assertion and diff; 44 tests counted', () => {
  const output = fixture('uvu.txt');
  const failures = parseTestFailures(output);
  assert.deepEqual(
    failures.map((t) => [t.name, t.file]),
    [['RegExp › RegExps', '/work/dequal/test/index.js']],
  );
  assert.equal(
    failures[0]?.excerpt,
    'Expected values to be strictly equal:  (is)\n    ++false    (Expected)\n    --true     (Actual)',
  );
  assert.equal(countTestsRun(output), 44);
});

test('the default suite has no name; several failures each keep their own text', () => {
  const lines = [
    'test/a.js',
    '• ✘ ✘   (1 / 3)',
    '',
    '   FAIL  "adds"',
    '    Expected 5 to equal 4',
    '    at Object.handler (/p/test/a.js:4:3)',
    '',
    '   FAIL  "sub"',
    '    boom',
    '',
    '  Total:     3',
    '  Passed:    1',
  ];
  assert.deepEqual(
    uvuFailures(lines).map((t) => [t.name, t.file, t.excerpt]),
    [
      ['adds', '/p/test/a.js', 'Expected 5 to equal 4'],
      ['sub', undefined, 'boom'],
    ],
  );
});

test("jest's and vitest's FAIL lines are not uvu failures, even with a quoted name", () => {
  for (const line of [' FAIL  src/a.test.js', ' FAIL  tests/x.test.ts > parses "foo"', 'FAIL  "x"', '    FAIL  "x"'])
    assert.deepEqual(uvuFailures([line, '    message']), [], line);
});
