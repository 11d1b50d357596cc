/**
 * CTest's failures, from real runs of small generated CMake projects (CMake 3.25): the
 * console of `ctest --output-on-failure` (serial and `-j3`, with a segfault, an abort,
 * a timeout, a missing executable, a skipped and a disabled test) and the JUnit report
 * of `--output-junit`. Both name tests by their CTest names, so a baseline from one
 * matches the other; the report is read only when this run wrote it in a build dir.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { parseTestFailures } from '../../../../src/activities/conditions/test-reports/parse-test-failures.js';
import { ctestReports } from '../../../../src/activities/conditions/test-reports/ctest-report-files.js';
import { passedInCTestJUnit } from '../../../../src/definition/ecosystems/test-runners/ctest-junit.js';
import { passedTests } from '../../../../src/activities/conditions/test-reports/passed-tests.js';
import { fixture } from '../fixtures.js';

const named = (output: string, ctestJunit?: string[]) =>
  parseTestFailures(output, ctestJunit ? { ctestJunit } : {}).map((t) => [t.name, t.excerpt, t.scope]);

const SUB = 'tests/test_sub.c:8: calc_sub(3, 2): expected 1, got 5';
// The assertion's absolute path is made relative to the source root (the build dir's parent).
const NEGATIVE = "test_sub: tests/test_sub.c:6: main: Assertion `r == -1' failed.";

test('the console: the FAILED list names every failing test, with its output and CTest status', () => {
  assert.deepEqual(named(fixture('ctest-output-on-failure.txt')), [
    ['sub', `${SUB}\nctest: Failed`, undefined],
    ['div', 'dividing by zero\nctest: SEGFAULT', undefined],
    ['sub.negative', `${NEGATIVE}\nctest: Subprocess aborted`, undefined],
  ]);
});

test('the console with -j: results out of order, long names, a missing executable is failed, names with spaces', () => {
  assert.deepEqual(
    named(fixture('ctest-parallel.txt')).map(([name, excerpt]) => [name, excerpt?.split('\n').at(-1)]),
    [
      ['sub', 'ctest: Failed'],
      ['div', 'ctest: SEGFAULT'],
      ['sub.negative', 'ctest: Subprocess aborted'],
      ['a_rather_long_test_name_that_overflows_the_dotted_column', 'ctest: Failed'],
      ['sleepy', 'ctest: Failed'],
      ['missing', 'ctest: Not Run'],
    ],
  );
  // A test's output ends at the next Start line, not at the next result.
  const [, sub] = named(fixture('ctest-parallel.txt'))[0] ?? [];
  assert.equal(sub, `${SUB}\nctest: Failed`);
  assert.deepEqual(
    named(fixture('ctest-timeout-skipped.txt')).map(([name, excerpt]) => [name, excerpt?.split('\n').at(-1)]),
    [
      ['sub', 'ctest: Failed'],
      ['div', 'ctest: SEGFAULT'],
      ['sub.negative', 'ctest: Subprocess aborted'],
      ['sleepy test', 'ctest: Timeout'],
    ],
    'skipped and disabled tests are not failures',
  );
});

test('passing tests for the eval: from the result lines, or the JUnit when there is one', () => {
  assert.deepEqual(passedTests(fixture('ctest-parallel.txt')), ['add']);
  assert.deepEqual(passedTests('', { ctestJunit: [fixture('ctest-junit.xml')] }), ['add']);
});

test('without the FAILED list (a run cut short) the result lines still name the failures', () => {
  const cut = fixture('ctest-timeout-skipped.txt').split('The following tests did not run:')[0] ?? '';
  assert.deepEqual(
    named(cut).map(([name]) => name),
    ['sub', 'div', 'sub.negative', 'sleepy test'],
  );
});

test('the JUnit report: the same names, the console status added; notrun counts unless the test skipped itself', () => {
  const junit = [fixture('ctest-junit-timeout-skipped.xml')];
  assert.deepEqual(
    named('', junit).map(([name, excerpt]) => [name, excerpt?.split('\n').at(-1)]),
    [
      ['sub', 'ctest: Failed'],
      ['div', 'ctest: Failed'],
      ['sub.negative', 'ctest: Failed'],
      ['sleepy test', 'ctest: Failed'],
    ],
  );
  // With the console, each keeps CTest's own word for what happened, and nothing is named twice.
  assert.deepEqual(
    named(fixture('ctest-timeout-skipped.txt'), junit).map(([name, excerpt]) => [name, excerpt?.split('\n').at(-1)]),
    [
      ['sub', 'ctest: Failed'],
      ['div', 'ctest: SEGFAULT'],
      ['sub.negative', 'ctest: Subprocess aborted'],
      ['sleepy test', 'ctest: Timeout'],
    ],
  );
  const missing = fixture('ctest-junit.xml').replace(
    /<testcase name="add" classname="add" time="[\d.]+" status="run">/,
    '<testcase name="add" classname="add" time="0" status="notrun">\n\t\t<skipped message="Unable to find executable"/>',
  );
  assert.deepEqual(
    named('', [missing]).map(([name, excerpt]) => [name, excerpt?.split('\n').at(-1)]),
    [
      ['add', 'ctest: Not Run (Unable to find executable)'],
      ['sub', 'ctest: Failed'],
      ['div', 'ctest: Failed'],
      ['sub.negative', 'ctest: Failed'],
    ],
  );
  assert.deepEqual(passedInCTestJUnit([fixture('ctest-junit.xml')]), ['add']);
  // Another runner's JUnit (no CTest status) is not read as CTest's.
  assert.deepEqual(named('', ['<testsuite><testcase name="x" classname="x"><failure/></testcase></testsuite>']), []);
});

test('report files: CTest JUnit in a CMake build dir, written by this run, found; older or foreign files not', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'ctest-reports-'));
  try {
    assert.deepEqual(await ctestReports(dir, Date.now()), [], 'not a CMake project');
    await writeFile(path.join(dir, 'CMakeLists.txt'), 'enable_testing()\n');
    for (const build of ['build', 'out/build/dev']) {
      await mkdir(path.join(dir, build), { recursive: true });
      await writeFile(path.join(dir, build, 'CMakeCache.txt'), '');
    }
    const started = Date.now();
    await writeFile(path.join(dir, 'build', 'ctest-junit.xml'), fixture('ctest-junit.xml'));
    await writeFile(path.join(dir, 'out/build/dev', 'results.xml'), fixture('ctest-junit-timeout-skipped.xml'));
    await writeFile(path.join(dir, 'build', 'other.xml'), '<testsuite><testcase name="a"/></testsuite>');
    await writeFile(path.join(dir, 'build', 'old.xml'), fixture('ctest-junit.xml'));
    const old = new Date(started - 60_000);
    await utimes(path.join(dir, 'build', 'old.xml'), old, old);
    const found = await ctestReports(dir, started);
    assert.equal(found.length, 2);
    assert.deepEqual(
      parseTestFailures('', { ctestJunit: found }).map((t) => t.name),
      ['sub', 'div', 'sub.negative', 'sleepy test'],
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
