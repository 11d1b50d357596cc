/**
 * The tests a test command's run failed, as its runner names them, whatever its exit status
 * says. PURE. A command that exits 0 while its runner names failing tests (a script ending
 * in `|| true`, `-Dmaven.test.failure.ignore` in a pom) failed them all the same: the gate
 * judges them on the branch (command-validator.ts) and records them on the base
 * (baseline-run.ts), so both sides name the same failures. A test the same output names
 * passing too was run again and passed (gotestsum --rerun-fails, a retry option): not failed.
 * On a non-zero exit every named failure counts, files that could not load included.
 */
import type { FailedTest, TestReports } from './parse-test-failures.js';
import { testFailures } from './parse-test-failures.js';
import { passedTests } from './passed-tests.js';

export function failingNow(
  failures: readonly FailedTest[],
  run: { readonly exitCode: number | undefined; readonly output: string; readonly reports: TestReports },
): FailedTest[] {
  if (run.exitCode !== 0) return [...failures];
  const named = testFailures(failures);
  // The common case (a passing run names no failure) reads no passing test.
  if (named.length === 0) return [];
  const passed = new Set(passedTests(run.output, run.reports) ?? []);
  return named.filter((f) => !passed.has(f.name));
}
