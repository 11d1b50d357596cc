/**
 * Unity (ThrowTheSwitch's C unit test framework, vendored by many C projects) prints one
 * line per test and a summary, under `make test` or inside a CTest test. PURE.
 *
 *   tests/test_calc.c:12:test_calc_add_sums:PASS
 *   tests/test_calc.c:7:test_calc_sub_subtracts:FAIL: Expected 1 Was 5. calc_sub(3, 2)
 *   tests/test_calc.c:9:test_calc_later:IGNORE: not written yet
 *   -----------------------
 *   4 Tests 2 Failures 1 Ignored
 *
 * Names are the test functions (`test_calc_sub_subtracts`), with their file: under
 * CTest a whole Unity program is one CTest test (`parse_string`), and these name the
 * cases inside it too. CMake compiles with absolute paths, so `__FILE__` names the
 * worktree; a path under the source root (CTest's `Test project <build>` parent) is made
 * relative. Read only in output that has Unity's summary line.
 */
import { readCTestConsole } from './ctest-console.js';
import { failedTest, type FailedTest } from './failed-test.js';
import type { TestRunner } from './test-runner.js';

export const UNITY: TestRunner = { name: 'Unity', failures: (lines) => unity(lines) };

/** 1 file, 2 line, 3 test function, 4 the message. */
const RESULT = /^(\S.*?):(\d+):(\w+):FAIL(?::\s*(.*?))?\s*$/;
const SUMMARY = /^\d+ Tests \d+ Failures \d+ Ignored\s*$/;

export function unity(lines: readonly string[]): FailedTest[] {
  if (!lines.some((l) => SUMMARY.test(l))) return [];
  const root = readCTestConsole(lines).root;
  const out: FailedTest[] = [];
  for (const line of lines) {
    const m = RESULT.exec(line);
    if (!m?.[1] || !m[3]) continue;
    const file = root !== undefined && m[1].startsWith(`${root}/`) ? m[1].slice(root.length + 1) : m[1];
    out.push(failedTest(m[3], file, [`${file}:${m[2]}: ${m[4] || 'FAIL'}`]));
  }
  return out;
}
