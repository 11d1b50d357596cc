/**
 * Automake's parallel test harness (`make check` in an Autotools project; its
 * `test-driver` prints one line per test, and a TAP driver one per TAP result). PURE.
 *
 *   PASS: test_add
 *   ./test-driver: line 112:  6568 Segmentation fault      "$@" >> "$log_file" 2>&1
 *   FAIL: test_div
 *   ERROR: test_io            (a hard error: exit 99)
 *   XPASS: test_known_bug     (expected to fail and passed: the harness fails it too)
 *   FAIL: tests/io.tap 3 - reads an empty file
 *
 * and then a summary (`# TOTAL: 4`, `# FAIL:  2`, `See ./test-suite.log`). The same
 * `FAIL: x` words are printed by other tools (Python's unittest prints `FAIL: test_x
 * (mod.Class)` headers), so lines are read only in output that has the harness's
 * summary. Names are the test as the Makefile lists it (`TESTS = …`), what `make check
 * TESTS=test_div` takes back; a TAP result keeps its number and description.
 *
 * With `VERBOSE=1` (the detected command sets it) the harness prints test-suite.log on
 * failure: one section per failing test, its header the same `FAIL: test_sub` line
 * underlined with `=`, then what the test printed (`tests/test_sub.c:8: … expected 1,
 * got 5`, `FAIL test_sub (exit status: 1)`). That output is the excerpt; without it,
 * what the driver printed just before the result line (a crash) and the log to read.
 */
import { failedTest, type FailedTest } from './failed-test.js';
import type { TestRunner } from './test-runner.js';

export const AUTOMAKE: TestRunner = {
  name: 'Automake',
  failures: (lines) => automake(lines),
  // `# TOTAL: 5` … `# SKIP: 1`.
  count: automakeTotals,
};

const RESULT = /^(FAIL|ERROR|XPASS): (\S.*?)\s*$/;
const SUMMARY_TOTAL = /^# TOTAL: +\d+\s*$/;
const SUMMARY_FAIL = /^# (?:FAIL|ERROR): +\d+\s*$/;
const SECTION_RULE = /^={3,}\s*$/;
const DRIVER_NOTE = /^\.?\/?(?:\S*\/)?test-driver: /;

export function automake(lines: readonly string[]): FailedTest[] {
  if (!lines.some((l) => SUMMARY_TOTAL.test(l)) || !lines.some((l) => SUMMARY_FAIL.test(l))) return [];
  const logged = logSections(lines);
  const out: FailedTest[] = [];
  lines.forEach((line, i) => {
    const m = RESULT.exec(line);
    if (!m?.[1] || !m[2] || SECTION_RULE.test(lines[i + 1] ?? '')) return;
    const section = logged.get(m[2]);
    if (section !== undefined) {
      out.push(failedTest(m[2], undefined, section));
      return;
    }
    const note = lines[i - 1] !== undefined && DRIVER_NOTE.test(lines[i - 1] ?? '') ? [lines[i - 1] ?? ''] : [];
    // The driver's log: the test's `.test` extension (Automake's default TEST_EXTENSIONS) becomes `.log`.
    const log = `${m[2].replace(/ \d+(?: - .*)?$/, '').replace(/\.test$/, '')}.log`;
    out.push(failedTest(m[2], undefined, [...note.map(driverNote), `${m[1]} (automake; its output is in ${log})`]));
  });
  return out;
}

/** test-suite.log's sections as VERBOSE prints them, by test: the lines under each `FAIL: x` / `====`. */
function logSections(lines: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let current: string[] | undefined;
  lines.forEach((line, i) => {
    const header = SECTION_RULE.test(lines[i + 1] ?? '') ? /^[A-Z]+: (\S.*?)\s*$/.exec(line) : null;
    if (header?.[1]) {
      current = [];
      if (RESULT.test(line)) out.set(header[1], current);
      return;
    }
    if (current === undefined || SECTION_RULE.test(line)) return;
    // A section ends with the driver's own `FAIL x (exit status: 1)` line, kept.
    current.push(line);
    if (/^[A-Z]+ \S.* \(exit status: \d+\)\s*$/.test(line)) current = undefined;
  });
  return out;
}

/** `./test-driver: line 112:  6568 Segmentation fault      "$@" >> …` → `Segmentation fault`. */
function driverNote(line: string): string {
  return /^\S+: line \d+: +\d+ (.+?)\s{2,}/.exec(line)?.[1] ?? line;
}

function automakeTotals(lines: readonly string[]): number | undefined {
  let total: number | undefined;
  for (const l of lines) {
    const m = /^# (TOTAL|SKIP):\s+(\d+)$/.exec(l);
    if (m) total = (total ?? 0) + (m[1] === 'TOTAL' ? Number(m[2]) : -Number(m[2]));
  }
  return total;
}
