/**
 * CTest's console (`ctest --output-on-failure`). PURE. CTest runs every test to the end
 * (it has no fail-fast by default) and closes with the list of those that failed:
 *
 *   The following tests FAILED:
 *   	  2 - sub (Failed)
 *   	  3 - div (SEGFAULT)
 *   	  5 - sleepy test (Timeout)
 *
 * Names are the tests' CTest names, the form `ctest -R '^sub$'` takes back. Each test
 * also has a result line (`2/4 Test #2: sub ....***Failed  0.00 sec`) followed, with
 * `--output-on-failure`, by what the test printed; that output gives the excerpt. Tests
 * that failed but are missing from the list (a run cut short, the list beyond the
 * output cap) are still named from their result lines. Skipped and disabled tests
 * (`***Skipped`, `***Not Run (Disabled)`, "The following tests did not run:") are not
 * failures; `***Not Run` for a missing executable is, as CTest counts it.
 *
 * With `-j`, result lines come in completion order and `Start` lines interleave; each
 * test's output follows its own result line, so it is read up to the next `Start`,
 * result or summary line.
 */
import { failedTest, type FailedTest } from './failed-test.js';

const LIST_START = /^The following tests FAILED:\s*$/;
/** `	  2 - sub (Failed)`, possibly followed by the test's labels. */
const LIST_ENTRY = /^\s+\d+ - (.+?) \(([^()]+)\)(?:\s+\S.*)?$/;
/** `2/4 Test #2: sub ......***Failed    0.00 sec`: 1 the name, 2 the status. */
const RESULT = /^\s*\d+\/\d+ Test\s+#\d+: (.+?) \.+\s*((?:\S.*?)?)\s+[\d.]+ sec\s*$/;
const START = /^\s+Start\s+\d+: /;
const SUMMARY = /^\d+% tests passed, \d+ tests? failed out of \d+/;
/** Output lines that say what went wrong, preferred over the rest of a test's output. */
const TELLING = /fail|error|assert|expect|abort|fault|panic|mismatch|exception|\bgot\b/i;
const OUTPUT_LINES = 5;
/** What a test framework prints for a check that passed, or to frame its report. */
const PASSING = /^\s*(?:\[ *(?:RUN|OK|PASSED|=+|-+) *\]|-{3,}\s*$)|:PASS\s*$/;

/** What the console tells about a run that its JUnit report does not. */
export interface CTestConsole {
  /** The status CTest gives each test of its FAILED list, by name (`Failed`, `SEGFAULT`, `Timeout`…). */
  readonly statuses: ReadonlyMap<string, string>;
  /** The source root: the parent of the build directory (`Test project /…/build`). */
  readonly root?: string;
}

export function readCTestConsole(lines: readonly string[]): CTestConsole {
  const build = lines.map((l) => /^Test project (\/.+?)\s*$/.exec(l)?.[1]).find((b) => b !== undefined);
  const root = build?.replace(/\/[^/]+\/?$/, '');
  return { statuses: failedList(lines), ...(root ? { root } : {}) };
}

function failedList(lines: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const start = lines.findIndex((l) => LIST_START.test(l));
  if (start === -1) return out;
  for (const line of lines.slice(start + 1)) {
    const m = LIST_ENTRY.exec(line);
    if (!m?.[1] || !m[2]) break;
    out.set(m[1], m[2]);
  }
  return out;
}

export function ctestConsole(lines: readonly string[]): FailedTest[] {
  const console = readCTestConsole(lines);
  const listed = console.statuses;
  const outputs = resultOutputs(lines);
  const names = [...listed.keys(), ...[...outputs.keys()].filter((n) => !listed.has(n) && outputs.get(n)?.failed)];
  return names.map((name) => {
    const result = outputs.get(name);
    const status = listed.get(name) ?? result?.status ?? '';
    return failedTest(name, undefined, ctestExcerpt(result?.output ?? [], status, console.root));
  });
}

/** The tests that passed, from their result lines (what the eval reads as PASS_TO_PASS). */
export function ctestPassed(lines: readonly string[]): string[] {
  return [...resultOutputs(lines)].filter(([, r]) => /^Passed\b/.test(r.status)).map(([name]) => name);
}

/**
 * A failing test's excerpt: the output lines that tell what went wrong, then CTest's own
 * status. Paths under the source root are made relative: CMake compiles with absolute
 * paths, so `__FILE__` in a test framework's message names the worktree.
 */
export function ctestExcerpt(output: readonly string[], status: string, root?: string): string[] {
  const printed = output.filter((l) => l.trim() !== '');
  // From the first line that tells (GoogleTest's `file:4: Failure` is followed by the values), passes left out.
  const first = printed.findIndex((l) => TELLING.test(l));
  const kept =
    first === -1
      ? printed.slice(-OUTPUT_LINES)
      : printed
          .slice(first)
          .filter((l) => !PASSING.test(l))
          .slice(0, OUTPUT_LINES);
  const word = status.replace(/\*{3}/g, ' ').replace(/\s+/g, ' ').trim();
  const relative = (l: string): string => (root === undefined ? l : l.split(`${root}/`).join(''));
  return [...kept.map((l) => relative(l.replace(/\s+$/, ''))), ...(word === '' ? [] : [`ctest: ${word}`])];
}

interface TestResult {
  readonly status: string;
  readonly failed: boolean;
  readonly output: string[];
}

/** Each test's result line and the output printed after it. */
function resultOutputs(lines: readonly string[]): Map<string, TestResult> {
  const out = new Map<string, TestResult>();
  let current: TestResult | undefined;
  for (const line of lines) {
    const m = RESULT.exec(line);
    if (m?.[1] !== undefined) {
      const status = m[2] ?? '';
      current = { status, failed: isFailure(status), output: [] };
      out.set(m[1], current);
      continue;
    }
    if (START.test(line) || SUMMARY.test(line) || LIST_START.test(line)) current = undefined;
    else current?.output.push(line);
  }
  return out;
}

/** `***Failed`, `***Exception: SegFault`, `***Timeout`, `***Not Run`; not `Passed`, `***Skipped`, `(Disabled)`. */
function isFailure(status: string): boolean {
  return status.includes('***') && !/\*\*\*Skipped|\(Disabled\)/.test(status);
}
