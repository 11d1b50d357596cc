/**
 * The tests a run passed, by the names the failure parsers use, for runners that print
 * passing tests by default or write a report (TestRunner.reportPassed and passed, in
 * definition/ecosystems/test-runners/). PURE. The gate uses them to tell a test red on
 * the base as fixed only when it is seen passing (baseline/tests-ran.ts); the eval's
 * miner for PASS_TO_PASS, and for a FAIL_TO_PASS test whose file did not even load
 * before the fix. Names from reports come first, then the consoles', each in the
 * registry's report order.
 *
 * `undefined` when nothing in the output names a passing test: the caller must not read
 * that as "none passed".
 */
import { TEST_RUNNERS } from '../../../definition/ecosystems/ecosystem-registry.js';
import type { TestReports } from '../../../definition/ecosystems/test-runners/test-runner.js';
import { stripAnsi } from '../strip-ansi.js';

export function passedTests(output: string, reports: TestReports = {}): string[] | undefined {
  const lines = stripAnsi(output).split(/\r?\n/);
  const names = [
    ...TEST_RUNNERS.flatMap((runner) => runner.reportPassed?.(reports, lines) ?? []),
    ...TEST_RUNNERS.flatMap((runner) => runner.passed?.(lines) ?? []),
  ];
  return names.length === 0 ? undefined : [...new Set(names)];
}
