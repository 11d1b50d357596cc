/**
 * The tests a run passed, by the names the failure parsers use, for runners that print
 * passing tests by default. PURE. The gate uses them to tell a test red on the base as
 * fixed only when it is seen passing (baseline/tests-ran.ts); the eval's miner for
 * PASS_TO_PASS, and for a FAIL_TO_PASS test whose file did not even load before the fix.
 *
 *   pytest        the JUnit XML report report-files.ts collects (every testcase)
 *   cargo test    `test mod::name ... ok`
 *   go test       `--- PASS: TestX` (with -v) and `-json` pass events; plain `go test`
 *                 prints no passing names (the miner then uses the test declarations)
 *   node --test   TAP `ok N - name` and the spec reporter's `✔ name`: the test's own name
 *   mocha         the spec reporter's `✓ title` under its suites: the full title, joined
 *                 by spaces, as mocha's failure recap names it
 *   jest          `--verbose` output (`✓ title` under suites): `suite › title`
 *   ctest         its JUnit report (`--output-junit`), else `1/4 Test #1: add ....   Passed`
 *
 * `undefined` when nothing in the output names a passing test: the caller must not read
 * that as "none passed".
 */
import { stripAnsi } from '../strip-ansi.js';
import { ctestPassed } from './ctest-console.js';
import { passedInCTestJUnit } from './ctest-junit.js';
import { passedInJUnitXml } from './junit-xml.js';
import { passedInSurefireXml } from './surefire-xml.js';
import type { TestReports } from './parse-test-failures.js';

type Lines = readonly string[];

const cargo = (lines: Lines): string[] =>
  lines.map((l) => /^test (.+?) \.\.\. ok\s*$/.exec(l)?.[1]).filter((n): n is string => n !== undefined);

function go(lines: Lines): string[] {
  const out: string[] = [];
  for (const line of lines) {
    const text = /^\s*--- PASS: (\S+)/.exec(line)?.[1];
    if (text !== undefined) out.push(text);
    if (!line.startsWith('{') || !line.includes('"pass"')) continue;
    try {
      const event = JSON.parse(line) as { Action?: string; Test?: string };
      if (event.Action === 'pass' && typeof event.Test === 'string') out.push(event.Test);
    } catch {
      // not a go test event
    }
  }
  return out;
}

const nodeTap = (lines: Lines): string[] =>
  lines
    .map((l) => /^\s*ok \d+ - (.+?)\s*$/.exec(l)?.[1])
    .filter((n): n is string => n !== undefined && !/\s#\s*(SKIP|TODO)\b/i.test(n));

/**
 * A spec-style tree: suites are unmarked lines, tests are marked; the indentation says
 * which suites hold a test. Numbered lines (`1) title`, a failure) and pending ones
 * (`- title`) are tests too, so they never become suites.
 */
function specTree(lines: Lines, join: string): string[] {
  const out: string[] = [];
  const suites: Array<{ indent: number; title: string }> = [];
  for (const line of lines) {
    const m = /^(\s*)(?:([✓✔√])|(\d+\)|-|✕|×))?\s*(.+?)\s*$/.exec(line);
    if (!m?.[4] || line.trim() === '') continue;
    const indent = m[1]?.length ?? 0;
    while (suites.length > 0 && (suites[suites.length - 1]?.indent ?? 0) >= indent) suites.pop();
    const title = m[4].replace(/\s+\(\d+(?:\.\d+)?\s*m?s\)$/, '');
    if (m[2] !== undefined) out.push([...suites.map((s) => s.title), title].join(join));
    else if (m[3] === undefined && indent > 0) suites.push({ indent, title });
  }
  return out;
}

/** mocha's report: the tree up to `N passing`. */
function mocha(lines: Lines): string[] {
  const end = lines.findIndex((l) => /^\s*\d+ passing\b/.test(l));
  return end === -1 ? [] : specTree(lines.slice(0, end), ' ');
}

/** jest --verbose: per file, after `PASS file`/`FAIL file`, the tree up to a blank line or the next file. */
function jest(lines: Lines): string[] {
  if (!lines.some((l) => /^Tests:\s+/.test(l))) return [];
  const out: string[] = [];
  let block: string[] | undefined;
  for (const line of [...lines, '']) {
    if (/^\s*(PASS|FAIL)\s+\S/.test(line)) {
      if (block) out.push(...specTree(block, ' › '));
      block = [];
    } else if (block && (/^\s*●/.test(line) || /^Test Suites:/.test(line))) {
      out.push(...specTree(block, ' › '));
      block = undefined;
    } else block?.push(line);
  }
  return out;
}

function nodeSpec(lines: Lines): string[] {
  if (lines.some((l) => /^\s*\d+ passing\b/.test(l))) return [];
  return lines
    .map((l) => /^\s*✔ (.+?)(?: \([\d.]+m?s\))?\s*$/.exec(l)?.[1])
    .filter((n): n is string => n !== undefined);
}

export function passedTests(output: string, reports: TestReports = {}): string[] | undefined {
  const lines = stripAnsi(output).split(/\r?\n/);
  const names = [
    ...(reports.junitXml === undefined ? [] : passedInJUnitXml(reports.junitXml)),
    ...(reports.surefireXml === undefined ? [] : passedInSurefireXml(reports.surefireXml)),
    ...(reports.ctestJunit === undefined ? ctestPassed(lines) : passedInCTestJUnit(reports.ctestJunit)),
    ...cargo(lines),
    ...go(lines),
    ...nodeTap(lines),
    ...nodeSpec(lines),
    ...mocha(lines),
    ...jest(lines),
  ];
  return names.length === 0 ? undefined : [...new Set(names)];
}
