/**
 * Failed test names and files from test runner output, in the shape callers had before
 * excerpts existed. PURE. The parsing lives in test-reports/ (one module per runner and
 * the dispatcher parseTestFailures, which also reads JUnit reports and gives each
 * failure its excerpt); this keeps `{ name, file }` for callers that only need names.
 */
import { parseTestFailures } from './test-reports/parse-test-failures.js';
import type { FailedTest } from '../../definition/ecosystems/test-runners/failed-test.js';

export type { FailedTest } from '../../definition/ecosystems/test-runners/failed-test.js';

export function parseTestOutput(output: string): FailedTest[] {
  return parseTestFailures(output).map((t) =>
    t.file === undefined ? { name: t.name } : { name: t.name, file: t.file },
  );
}
