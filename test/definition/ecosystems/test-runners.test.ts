/**
 * Every test runner the harness reads is owned by one ecosystem module
 * (`EcosystemModule.testRunners`): each summary the count recognises is one owned runner's,
 * and the shared machinery in activities/conditions/test-reports/ names no runner, so
 * adding one is a parser in definition/ecosystems/test-runners/ and its module's entry.
 * The JUnit XML reader is shared: any report's testcases count the run.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { countTestsRun } from '../../../src/activities/conditions/test-reports/tests-run.js';
import {
  ECOSYSTEMS,
  ECOSYSTEMS_IN_REPORT_ORDER,
  TEST_RUNNERS,
} from '../../../src/definition/ecosystems/ecosystem-registry.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

/** One summary per counting runner, by its name, with the count it gives. */
const SUMMARIES: ReadonlyArray<[runner: string, output: string, count: number]> = [
  ['vitest', '      Tests  2 failed | 28 passed | 1 skipped (31)', 30],
  ['jest', 'Tests:       2 failed, 1 skipped, 28 passed, 31 total', 30],
  ['mocha', '  28 passing (12ms)\n  1 pending\n  2 failing', 30],
  ['node:test', '# tests 31\n# pass 28\n# fail 2\n# skipped 1', 30],
  ['uvu', '  Total:     30\n  Passed:    28\n  Skipped:   1\n  Duration:  8.36ms', 30],
  ['pytest', '=========== 2 failed, 28 passed, 1 skipped, 3 warnings in 0.52s ===========', 30],
  ['go test', 'ok  \tdemo/a\t0.01s\nFAIL\tdemo/b\t0.02s', 2],
  [
    'cargo test',
    'test result: FAILED. 3 passed; 1 failed; 1 ignored; 0 measured; 2 filtered out; finished in 0.00s',
    4,
  ],
  ['Surefire', '[ERROR] Tests run: 9, Failures: 1, Errors: 1, Skipped: 2', 7],
  ['CTest', '93% tests passed, 2 tests failed out of 30', 30],
  ['Automake', '# TOTAL: 5\n# PASS:  3\n# SKIP:  1\n# FAIL:  1', 4],
  ['GoogleTest', '[==========] 12 tests from 3 test suites ran. (1 ms total)', 12],
];

test('every test runner is owned by exactly one ecosystem module, under a name of its own', () => {
  assert.deepEqual(ECOSYSTEMS_IN_REPORT_ORDER.map((e) => e.id).sort(), ECOSYSTEMS.map((e) => e.id).sort());
  const owned = ECOSYSTEMS.flatMap((e) => (e.testRunners ?? []).map((runner) => ({ id: e.id, runner })));
  for (const runner of TEST_RUNNERS)
    assert.equal(owned.filter((o) => o.runner === runner).length, 1, `${runner.name}: one owner`);
  assert.equal(TEST_RUNNERS.length, owned.length, 'every owned runner is read');
  const names = TEST_RUNNERS.map((r) => r.name);
  assert.deepEqual(names, [...new Set(names)]);
});

test('every summary the count recognises is one owned runner’s, and every counting runner has one here', () => {
  for (const [name, output, count] of SUMMARIES) {
    assert.equal(countTestsRun(output), count, name);
    const lines = output.split('\n');
    assert.deepEqual(
      TEST_RUNNERS.filter((r) => r.count?.(lines) !== undefined).map((r) => r.name),
      [name],
      `${name}: counted by its runner alone`,
    );
  }
  assert.deepEqual(
    TEST_RUNNERS.filter((r) => r.count !== undefined)
      .map((r) => r.name)
      .sort(),
    SUMMARIES.map(([name]) => name).sort(),
  );
  // The shared reader counts any report's testcases, whoever wrote it.
  const xml = '<testsuite><testcase name="a"/><testcase name="b"><skipped/></testcase></testsuite>';
  assert.equal(countTestsRun('', { junitXml: xml }), 1);
  assert.equal(countTestsRun('', { surefireXml: [xml], ctestJunit: [xml] }), 2);
});

test('the shared machinery names no runner: it takes them from the registry', () => {
  const runners =
    /\b(?:pytest|cargo|jest|vitest|mocha|surefire|javac|ctest|gtest|googletest|unity|automake|tap|junitXml|surefireXml|ctestJunit)\b|go test/i;
  for (const file of ['parse-test-failures.ts', 'tests-run.ts', 'passed-tests.ts', 'tests-seen.ts']) {
    const path = join(ROOT, 'src', 'activities', 'conditions', 'test-reports', file);
    const code = readFileSync(path, 'utf8').replace(/\/\*\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    assert.doesNotMatch(code, runners, file);
  }
});
