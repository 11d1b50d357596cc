/**
 * How many tests a run executed, passed or failed (skipped and todo ones do not count),
 * from the reports the runner wrote or the summary line each runner prints. PURE.
 *
 * The gate compares it with the same command's count on the base commit: a branch that
 * makes the tests pass by running fewer of them (`<skipTests>` in a pom, a pytest
 * `--deselect`, a narrowed test script, a build tag on a test file) shows up as a drop,
 * whatever file it edited. Both counts come from this one function over the same
 * command's output, so a runner counted in packages (plain `go test ./...`) is compared
 * with itself.
 *
 * Undefined when nothing says how many tests ran (a runner we do not read, a quiet run
 * with no report): callers must not read that as zero.
 */
import { stripAnsi } from '../strip-ansi.js';
import { TESTCASE } from './junit-xml.js';
import { npmWorkspaceParts } from './npm-workspace-parts.js';
import type { TestReports } from './parse-test-failures.js';
import { workspaceParts } from './workspace-prefixes.js';

type Lines = readonly string[];
/** A runner's count over one part of the output; undefined when the part is not its. */
type Counter = (lines: Lines) => number | undefined;

export function countTestsRun(output: string, reports: TestReports = {}): number | undefined {
  const xmls = [
    ...(reports.junitXml === undefined ? [] : [reports.junitXml]),
    ...(reports.surefireXml ?? []),
    ...(reports.ctestJunit ?? []),
  ];
  if (xmls.length > 0) return xmls.reduce((sum, xml) => sum + ranInXml(xml), 0);
  const lines = stripAnsi(output).split(/\r?\n/);
  const parts = workspaceParts(lines).flatMap((part) =>
    part.dir === undefined ? npmWorkspaceParts(part.lines) : [part],
  );
  let total: number | undefined;
  for (const part of parts) {
    for (const count of COUNTERS) {
      const n = count(part.lines);
      if (n !== undefined) total = (total ?? 0) + n;
    }
  }
  return total;
}

/** Testcases without a `<skipped>` child. */
function ranInXml(xml: string): number {
  let n = 0;
  for (const m of xml.matchAll(TESTCASE)) if (!/<skipped\b/.test(m[2] ?? '')) n += 1;
  return n;
}

/**
 * Sums the numbers of `kinds` in the `N kind` phrases of the lines `line` matches. A line
 * counts only when it names one of `kinds` or says `no tests` (a `3 warnings in 0.5s` is
 * not a count of zero); undefined when no line counts.
 */
function summed(lines: Lines, line: RegExp, kinds: RegExp = RAN): number | undefined {
  let total: number | undefined;
  for (const text of lines) {
    const m = line.exec(text);
    if (!m) continue;
    const phrase = m[1] ?? text;
    let n = 0;
    let says = /\bno tests\b/.test(phrase);
    for (const p of phrase.matchAll(/(\d+) ([a-z]+)/g)) {
      if (!kinds.test(p[2] ?? '')) continue;
      n += Number(p[1]);
      says = true;
    }
    if (says) total = (total ?? 0) + n;
  }
  return total;
}

/** Counts the lines matching `line`; undefined when none does. */
function counted(lines: Lines, line: RegExp): number | undefined {
  const n = lines.filter((l) => line.test(l)).length;
  return n === 0 ? undefined : n;
}

const RAN = /^(passed|failed|errors?|failing|passing|fail|pass)$/;

const COUNTERS: readonly Counter[] = [
  // vitest: ` Tests  2 failed | 28 passed | 1 skipped (31)`, or `Tests  no tests`.
  (lines) => summed(lines, /^\s*Tests\s{2,}(.+?)\s*(?:\(\d+\))?\s*$/),
  // jest: `Tests:       2 failed, 28 passed, 30 total`.
  (lines) => summed(lines, /^Tests:\s+(.+)$/),
  // mocha: `  28 passing (12ms)` and `  2 failing`.
  (lines) => summed(lines, /^\s*(\d+ (?:passing|failing))\b/),
  // node:test: TAP `# pass 28` / `# fail 2`, the spec reporter's `ℹ pass 28`.
  (lines) => tapTotals(lines),
  // pytest: `==== 2 failed, 28 passed, 1 skipped in 0.12s ====` (or `-q`'s bare line), `no tests ran`.
  (lines) => summed(lines, /^(?:=+ )?((?:\d+ \w+|no tests ran)(?:, \d+ \w+)*) in [\d.]+s\b.*$/),
  (lines) => goTests(lines),
  // cargo test, per test binary: `test result: ok. 28 passed; 2 failed; 1 ignored; …`.
  (lines) => summed(lines, /^test result: \w+\. (.+)$/),
  // Surefire's totals (the per-class lines carry `Time elapsed`): `Tests run: 30, Failures: 2, Errors: 0, Skipped: 1`.
  (lines) => surefireTotals(lines),
  // CTest: `93% tests passed, 2 tests failed out of 30`.
  (lines) => ctestTotals(lines),
  // Automake: `# TOTAL: 5` … `# SKIP: 1`.
  (lines) => automakeTotals(lines),
  // GoogleTest: `[==========] 12 tests from 3 test suites ran.`
  (lines) => summed(lines, /^\[=+\] (\d+ tests?) from .* ran\./, /^tests?$/),
];

/**
 * go test: `-json` pass/fail events of tests; with `-v`, its `--- PASS:`/`--- FAIL:` lines;
 * else one per package that ran tests (`ok`/`FAIL <pkg> <time>`). Plain `go test` prints
 * `--- FAIL:` lines but no `--- PASS:` ones, so only a run that shows a pass is counted by test.
 */
function goTests(lines: Lines): number | undefined {
  const events = counted(lines, /^\{.*"Action":"(pass|fail)".*"Test":/);
  if (events !== undefined) return events;
  if (lines.some((l) => /^\s*--- PASS: /.test(l))) return counted(lines, /^\s*--- (PASS|FAIL): /);
  return counted(lines, /^(ok|FAIL)\s+\S+\s+(\(cached\)|[\d.]+s)/);
}

function tapTotals(lines: Lines): number | undefined {
  let total: number | undefined;
  for (const l of lines) {
    const m = /^(?:#|ℹ) (pass|fail) (\d+)$/.exec(l);
    if (m) total = (total ?? 0) + Number(m[2]);
  }
  return total;
}

function surefireTotals(lines: Lines): number | undefined {
  let total: number | undefined;
  for (const l of lines) {
    if (l.includes('Time elapsed')) continue;
    const m = /Tests run: (\d+), Failures: \d+, Errors: \d+, Skipped: (\d+)/.exec(l);
    if (m) total = (total ?? 0) + Number(m[1]) - Number(m[2]);
  }
  return total;
}

function ctestTotals(lines: Lines): number | undefined {
  let total: number | undefined;
  for (const l of lines) {
    const m = /^\d+% tests passed, \d+ tests? failed out of (\d+)/.exec(l);
    if (m) total = (total ?? 0) + Number(m[1]);
  }
  return total;
}

function automakeTotals(lines: Lines): number | undefined {
  let total: number | undefined;
  for (const l of lines) {
    const m = /^# (TOTAL|SKIP):\s+(\d+)$/.exec(l);
    if (m) total = (total ?? 0) + (m[1] === 'TOTAL' ? Number(m[2]) : -Number(m[2]));
  }
  return total;
}
