/**
 * GoogleTest's console (C++), wherever it runs: a test binary under CTest registered
 * whole (`add_test(NAME unit COMMAND unit_tests)`, one CTest name for every case), under
 * `make test`, or by hand. PURE. Each failing case ends with a result line
 *
 *   [ RUN      ] Calc.Subtracts
 *   /…/tests/calc_test.cpp:4: Failure
 *   Expected equality of these values:
 *     1
 *     sub(3, 2)
 *       Which is: 5
 *   [  FAILED  ] Calc.Subtracts (0 ms)
 *   [  FAILED  ] Small/Param.SubIsInverse/0, where GetParam() = 0 (0 ms)
 *
 * Names are `Suite.Case` (a parameterized case keeps its `Prefix/…/N`), what
 * `--gtest_filter=` takes back; the `, where GetParam() = 0` note is not part of it.
 * With `gtest_discover_tests` CTest registers each case under this same name, so both
 * parsers name one test once. The recap after the run (`[  FAILED  ] Calc.Subtracts`
 * without a time) repeats them and is only read when the result lines are missing (the
 * output cut). The excerpt is what the case printed between its RUN and FAILED lines.
 */
import { failedTest, type FailedTest } from './failed-test.js';
import { summed } from './summary-counts.js';
import type { TestRunner } from './test-runner.js';

export const GOOGLETEST: TestRunner = {
  name: 'GoogleTest',
  failures: (lines) => gtest(lines),
  // `[==========] 12 tests from 3 test suites ran.`
  count: (lines) => summed(lines, /^\[=+\] (\d+ tests?) from .* ran\./, /^tests?$/),
};

const RUN = /^\[ RUN {6}\] (\S+)\s*$/;
/** 1 the name, 2 `(N ms)` when it is a result line rather than the recap. */
const FAILED = /^\[ {2}FAILED {2}\] (\S+?)(?:, where .*?)?( \(\d+ ms\))?\s*$/;
const RECAP = /^\[ {2}FAILED {2}\] \d+ tests?, listed below:\s*$/;

export function gtest(lines: readonly string[]): FailedTest[] {
  const results: FailedTest[] = [];
  const recap: FailedTest[] = [];
  let running: { name: string; from: number } | undefined;
  let inRecap = false;
  lines.forEach((line, i) => {
    const run = RUN.exec(line);
    if (run?.[1]) {
      running = { name: run[1], from: i + 1 };
      return;
    }
    if (RECAP.test(line)) {
      inRecap = true;
      return;
    }
    const failed = FAILED.exec(line);
    if (!failed?.[1]) {
      if (line.trim() !== '' && !line.startsWith('[')) inRecap = false;
      return;
    }
    if (failed[2] !== undefined) {
      const output = running?.name === failed[1] ? lines.slice(running.from, i) : [];
      results.push(failedTest(failed[1], undefined, output));
      running = undefined;
    } else if (inRecap) recap.push(failedTest(failed[1]));
  });
  return results.length > 0 ? results : recap;
}
