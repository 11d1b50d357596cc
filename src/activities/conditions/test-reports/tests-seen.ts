/**
 * What one run of a test command shows of its tests: how many ran (tests-run.ts) and
 * which passed, by name (passed-tests.ts), each when the output or reports say. PURE.
 */
import type { TestReports } from './parse-test-failures.js';
import { passedTests } from './passed-tests.js';
import { countTestsRun } from './tests-run.js';

/** What a run shows of its tests: how many ran, and the names of those that passed, when it says. */
export interface TestsSeen {
  readonly count?: number;
  readonly passed?: readonly string[];
}

export function testsSeen(output: string, reports: TestReports = {}): TestsSeen {
  const count = countTestsRun(output, reports);
  const passed = passedTests(output, reports);
  return { ...(count === undefined ? {} : { count }), ...(passed === undefined ? {} : { passed }) };
}
