/**
 * A C build that failed before its tests ran, and Automake's `make check`, from real
 * runs (GCC 12, CMake 3.25, Automake 1.16): a compiler error is a load failure named by
 * its file relative to the source root (CMake hands GCC absolute paths), a link error
 * one named by the target that failed to link; Automake's `FAIL:` lines name tests only
 * in output with the harness's summary (unittest prints `FAIL: test_x (mod.Class)` too).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  parseTestFailures,
  testFailures,
} from '../../../../src/activities/conditions/test-reports/parse-test-failures.js';
import { classifyPreflight } from '../../../../src/activities/preflight/classify-preflight.js';
import { fixture } from '../fixtures.js';

const all = (output: string) => parseTestFailures(output).map((t) => [t.name, t.excerpt, t.scope]);

test('a compiler error: the file, relative to the source root, as a load failure; no test named', () => {
  const failures = parseTestFailures(fixture('cmake-compile-error.txt'));
  assert.deepEqual(
    failures.map((t) => [t.name, t.file, t.excerpt, t.scope]),
    [['src/calc.c', 'src/calc.c', 'src/calc.c:2: error: expected ‘;’ before ‘}’ token', 'load']],
  );
  assert.deepEqual(testFailures(failures), []);
});

test('a link error (a test calling a function not written yet): the target that failed to link', () => {
  assert.deepEqual(all(fixture('cmake-link-error.txt')), [
    [
      'test_sub',
      "test_sub.c:(.text+0xa5): undefined reference to `calc_neg'\ncollect2: error: ld returned 1 exit status",
      'load',
    ],
  ]);
});

test('Automake: FAIL lines with the driver note of a crash, the log to read; PASS and SKIP are not failures', () => {
  assert.deepEqual(all(fixture('automake-check.txt')), [
    ['test_sub', 'FAIL (automake; its output is in test_sub.log)', undefined],
    ['test_div', 'Segmentation fault\nFAIL (automake; its output is in test_div.log)', undefined],
  ]);
  const tap =
    'ERROR: tests/io.test\nFAIL: tests/parse.tap 3 - reads an empty file\nXPASS: known_bug\n# TOTAL: 3\n# FAIL:  1\n';
  assert.deepEqual(
    all(tap).map(([name, excerpt]) => [name, excerpt]),
    [
      ['tests/io.test', 'ERROR (automake; its output is in tests/io.log)'],
      ['tests/parse.tap 3 - reads an empty file', 'FAIL (automake; its output is in tests/parse.tap.log)'],
      ['known_bug', 'XPASS (automake; its output is in known_bug.log)'],
    ],
  );
  // VERBOSE=1: test-suite.log's sections give each failing test's own output; no test is named twice.
  assert.deepEqual(all(fixture('automake-check-verbose.txt')), [
    ['test_sub', 'tests/test_sub.c:8: calc_sub(3, 2): expected 1, got 5\nFAIL test_sub (exit status: 1)', undefined],
    ['test_div', 'dividing by zero\nFAIL test_div (exit status: 139)', undefined],
  ]);
  const unittest =
    '======\nFAIL: test_sub (test_calc.CalcTest)\n------\nAssertionError: 5 != 1\n\nFAILED (failures=1)\n';
  assert.deepEqual(all(unittest), [], 'not without the harness summary');
});

test('on the base, a library that is not installed stops the run; a project header not written yet does not', () => {
  const verdict = (output: string) => classifyPreflight({ kind: 'test', exitCode: 2, stdout: output, stderr: '' });
  const header = verdict(fixture('cmake-missing-header.txt'));
  assert.equal(header.verdict, 'environment-failure');
  assert.equal(header.verdict === 'environment-failure' && header.cause, 'missing-dependency');
  const clang =
    "src/calc.c:2:10: fatal error: 'nosuchlib.h' file not found\n#include <nosuchlib.h>\n         ^~~~~~~~~~~~~\n";
  assert.equal(
    classifyPreflight({ kind: 'test', exitCode: 2, stdout: clang, stderr: '' }).verdict,
    'environment-failure',
  );
  const pkg = verdict(fixture('cmake-missing-package.txt'));
  assert.equal(pkg.verdict === 'environment-failure' && pkg.cause, 'missing-dependency');
  // `#include "calc_neg.h"` of an issue's new test: the tests cannot load yet, which is reported, not a stop.
  const own = fixture('cmake-missing-header.txt').replace(/<nosuchlib\.h>/g, '"nosuchlib.h"');
  const ownVerdict = verdict(own);
  assert.equal(ownVerdict.verdict === 'environment-failure' && ownVerdict.cause, 'not-loadable');
});
