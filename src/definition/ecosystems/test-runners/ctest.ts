/**
 * CTest, read from its JUnit reports when the run wrote them (ctest-junit.ts) and always
 * from its console (ctest-console.ts): both name tests by their CTest names, and the
 * console gives the statuses and source root the report lacks. PURE.
 */
import { ctestConsole, ctestPassed, readCTestConsole } from './ctest-console.js';
import { parseCTestJUnit, passedInCTestJUnit } from './ctest-junit.js';
import type { TestRunner } from './test-runner.js';

export const CTEST: TestRunner = {
  name: 'CTest',
  reportFailures: (reports, lines) => parseCTestJUnit(reports.ctestJunit ?? [], readCTestConsole(lines)),
  failures: (lines) => ctestConsole(lines),
  count: ctestTotals,
  // Its JUnit report, else its result lines (`1/4 Test #1: add ....   Passed`).
  reportPassed: (reports, lines) =>
    reports.ctestJunit === undefined ? ctestPassed(lines) : passedInCTestJUnit(reports.ctestJunit),
};

/** `93% tests passed, 2 tests failed out of 30`. */
function ctestTotals(lines: readonly string[]): number | undefined {
  let total: number | undefined;
  for (const l of lines) {
    const m = /^\d+% tests passed, \d+ tests? failed out of (\d+)/.exec(l);
    if (m) total = (total ?? 0) + Number(m[1]);
  }
  return total;
}
