/**
 * How many tests a run executed, per runner, from its summary line or its reports; and
 * what the gate makes of the count against the base (baseline/tests-ran.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countTestsRun } from '../../../../src/activities/conditions/test-reports/tests-run.js';
import { judgeTestsRan } from '../../../../src/activities/conditions/baseline/tests-ran.js';

test('each runner is counted from its own summary; skipped and todo tests do not count', () => {
  const cases: Array<[string, string, number]> = [
    ['vitest', ' Test Files  1 failed | 2 passed (3)\n      Tests  2 failed | 28 passed | 1 skipped (31)', 30],
    ['vitest, none', '      Tests  no tests', 0],
    ['jest', 'Test Suites: 1 failed, 1 total\nTests:       2 failed, 1 skipped, 28 passed, 31 total', 30],
    ['mocha', '  28 passing (12ms)\n  1 pending\n  2 failing', 30],
    ['node TAP', '# tests 31\n# suites 0\n# pass 28\n# fail 2\n# cancelled 0\n# skipped 1\n# todo 0', 30],
    ['node spec', 'ℹ tests 3\nℹ pass 2\nℹ fail 1', 3],
    ['pytest', '=========== 2 failed, 28 passed, 1 skipped, 3 warnings in 0.52s ===========', 30],
    ['pytest -q', '2 failed, 28 passed in 0.12s', 30],
    ['pytest, none', '============ no tests ran in 0.01s ============', 0],
    [
      'go -v',
      '=== RUN   TestA\n--- PASS: TestA (0.00s)\n=== RUN   TestB\n--- FAIL: TestB (0.00s)\nFAIL\tdemo\t0.01s',
      2,
    ],
    ['go', 'ok  \tdemo/a\t0.01s\nFAIL\tdemo/b\t0.02s\n?   \tdemo/c\t[no test files]\nok  \tdemo/d\t(cached)', 3],
    // Plain go test names failures but not passes: counted by package, never by the failures alone.
    [
      'go, a failure',
      '--- FAIL: TestB (0.00s)\n    b_test.go:8: wrong\nFAIL\nFAIL\tdemo/b\t0.02s\nok  \tdemo/a\t0.01s',
      2,
    ],
    [
      'go -json',
      '{"Action":"pass","Package":"demo","Test":"TestA"}\n{"Action":"fail","Package":"demo","Test":"TestB"}\n{"Action":"pass","Package":"demo"}',
      2,
    ],
    [
      'cargo',
      'test result: FAILED. 3 passed; 1 failed; 1 ignored; 0 measured; 2 filtered out; finished in 0.00s\ntest result: ok. 4 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s',
      8,
    ],
    [
      'surefire',
      '[INFO] Tests run: 5, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.1 s - in demo.ATest\n[INFO] Results:\n[ERROR] Tests run: 9, Failures: 1, Errors: 1, Skipped: 2',
      7,
    ],
    ['ctest', '93% tests passed, 2 tests failed out of 30', 30],
    ['automake', '# TOTAL: 5\n# PASS:  3\n# SKIP:  1\n# XFAIL: 0\n# FAIL:  1', 4],
    ['gtest', '[==========] 12 tests from 3 test suites ran. (1 ms total)', 12],
  ];
  for (const [runner, output, count] of cases) assert.equal(countTestsRun(output), count, runner);
});

test('nothing that counts is undefined, not zero: an unknown runner, a warning line, a quiet build', () => {
  assert.equal(countTestsRun('BUILD SUCCESS\n3 warnings in 0.5s\n'), undefined);
  assert.equal(countTestsRun(''), undefined);
});

test('reports count their testcases (skipped ones not), before any text', () => {
  const xml =
    '<testsuite><testcase classname="a" name="x"/><testcase classname="a" name="y"><failure message="m"/></testcase><testcase classname="a" name="z"><skipped/></testcase></testsuite>';
  assert.equal(countTestsRun('Tests  40 passed (40)', { surefireXml: [xml, xml] }), 4);
  assert.equal(countTestsRun('', { junitXml: xml }), 2);
});

test('workspace runs are summed over their packages, their prefixes stripped', () => {
  const output = [
    'packages/a test$ vitest run',
    'packages/b test$ vitest run',
    'packages/a test:       Tests  1 failed | 3 passed (4)',
    'packages/b test:       Tests  5 passed (5)',
  ].join('\n');
  assert.equal(countTestsRun(output), 9);
});

const base = { commit: 'c'.repeat(40), command: 'npm test', exitCode: 1, failedTests: ['broken'], testsRun: 30 };

test('the gate: nothing seen, or fewer than on the base, blocks; as many passes with what the fix rests on', () => {
  const none = judgeTestsRan(base, {});
  assert.equal(none.blocks, true);
  assert.match(none.blocks ? none.line : '', /no test was seen to run.*30 ran on the base commit c{12}/);
  const fewer = judgeTestsRan(base, { count: 28 });
  assert.match(fewer.blocks ? fewer.line : '', /fewer tests ran than on the base commit c{12}: 28 now, 30 there/);
  const named = judgeTestsRan(base, { count: 30, passed: ['broken', 'other'] });
  assert.deepEqual(
    [named.blocks, named.blocks ? '' : named.fixedLine],
    [false, `fixed since base ${'c'.repeat(12)}: broken`],
  );
  const partly = judgeTestsRan({ ...base, failedTests: ['broken', 'odd'] }, { count: 30, passed: ['broken'] });
  assert.match(
    partly.blocks ? '' : (partly.fixedLine ?? ''),
    /broken, odd \(by .*; not named among the passing tests: odd\)$/,
  );
  // A test the run names failing (accepted against the base) is never told as fixed, counts or not.
  const stillFailing = judgeTestsRan({ ...base, failedTests: ['broken', 'odd'] }, { count: 30, passed: ['other'] }, [
    'odd',
  ]);
  assert.deepEqual(stillFailing.blocks ? [] : stillFailing.fixed, ['broken']);
  const counted = judgeTestsRan(base, { count: 31 });
  assert.match(
    counted.blocks ? '' : (counted.fixedLine ?? ''),
    /broken \(by the exit status and the runner's count: 31 now, 30 on the base\)/,
  );
});

test('a base without a count blocks nothing; a fix it cannot see passing is not claimed as fixed', () => {
  const { testsRun: _unmeasured, ...old } = base;
  const unseen = judgeTestsRan(old, { passed: ['other'] });
  assert.equal(unseen.blocks, false);
  assert.deepEqual(unseen.params['fixed'], []);
  assert.match(unseen.blocks ? '' : (unseen.fixedLine ?? ''), /^failing on the base and not seen passing now: broken$/);
  const blind = judgeTestsRan(old, {});
  assert.match(blind.blocks ? '' : (blind.fixedLine ?? ''), /by the exit status alone/);
  assert.equal(
    judgeTestsRan({ ...base, testsRun: 0 }, {}).blocks,
    false,
    'a base that ran nothing has nothing to lose',
  );
});

test('the tests not seen passing are named a few at a time, then how many more', () => {
  const failedTests = Array.from({ length: 32 }, (_, i) => `t${i}`);
  const verdict = judgeTestsRan({ ...base, failedTests }, { count: 31, passed: ['t0'] });
  const line = verdict.blocks ? '' : (verdict.fixedLine ?? '');
  assert.match(line, /not named among the passing tests: t1, t2, t3, t4, t5, t6 \(\+25 more\)\)$/);
});
