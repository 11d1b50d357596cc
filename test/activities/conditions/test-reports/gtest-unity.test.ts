/**
 * The C and C++ unit test frameworks inside a test command, from real runs: GoogleTest
 * 1.12 (under CTest with `gtest_discover_tests`, where CTest's names are GoogleTest's,
 * plus the same binary registered whole; and the binary alone) and Unity (under `make
 * test` and under CTest, where one CTest test holds several Unity tests). Each names
 * the cases by the framework's own names; absolute paths under CTest are made relative.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseTestFailures } from '../../../../src/activities/conditions/test-reports/parse-test-failures.js';
import { fixture } from '../fixtures.js';

const named = (output: string) => parseTestFailures(output).map((t) => [t.name, t.file, t.excerpt]);

const SUBTRACTS =
  'tests/calc_test.cpp:4: Failure\nExpected equality of these values:\n  1\n  sub(3, 2)\n    Which is: 5';

test('GoogleTest alone: Suite.Case from the result lines, the where-note left out, the failure as excerpt', () => {
  const failures = named(fixture('gtest.txt'));
  assert.deepEqual(
    failures.map(([name]) => name),
    ['Calc.Subtracts', 'Small/Param.SubIsInverse/0', 'Small/Param.SubIsInverse/1'],
  );
  assert.equal(failures[0]?.[2], `/tmp/cc/gt/${SUBTRACTS}`);
  // Cut before the result lines: the recap still names them.
  const recap = fixture('gtest.txt')
    .split('\n')
    .filter((l) => !/\(\d+ ms\)$/.test(l))
    .join('\n');
  assert.deepEqual(
    named(recap).map(([name]) => name),
    ['Calc.Subtracts', 'Small/Param.SubIsInverse/0', 'Small/Param.SubIsInverse/1'],
  );
});

test('GoogleTest under CTest: discovered cases named once, the whole binary too; the excerpt keeps the values', () => {
  const failures = named(fixture('gtest-ctest.txt'));
  assert.deepEqual(
    failures.map(([name]) => name),
    ['Calc.Subtracts', 'Small/Param.SubIsInverse/0', 'Small/Param.SubIsInverse/1', 'calc_test_all'],
  );
  assert.equal(failures[0]?.[2], `${SUBTRACTS}\nctest: Failed`);
});

test('Unity under make and under CTest: the failing test functions with their files; PASS and IGNORE are not failures', () => {
  const expected = [
    ['test_calc_sub_subtracts', 'tests/test_calc.c', 'tests/test_calc.c:7: Expected 1 Was 5. calc_sub(3, 2)'],
    ['test_calc_sub_negative', 'tests/test_calc.c', 'tests/test_calc.c:8: Expected TRUE Was FALSE'],
  ];
  assert.deepEqual(named(fixture('unity-make.txt')), expected);
  const underCTest = named(fixture('unity-ctest.txt'));
  assert.deepEqual(
    underCTest.map(([name]) => name),
    ['calc', 'test_calc_sub_subtracts', 'test_calc_sub_negative'],
  );
  assert.deepEqual(underCTest.slice(1), expected);
  const noSummary = fixture('unity-make.txt').replace(/^\d+ Tests .*$/m, '');
  assert.deepEqual(named(noSummary), [], 'not without the summary line');
});
