/**
 * jest and vitest, the two runners of jest's family (vitest prints its own reports but
 * keeps jest's vocabulary). PURE.
 *
 * vitest: the `FAIL  file > suite > name` recaps of its "Failed Tests" section, each
 * followed by the error (`AssertionError: expected 2 to be 1`) and the diff; the `×
 * name` tree lines (with `→ message`) only when no recap exists (a truncated or
 * interrupted run).
 *
 * jest: `FAIL path` headers, then a `● suite › name` block for each failure holding
 * the matcher message and Expected/Received, then a code frame and stack. A file that
 * could not load at all reports `● Test suite failed to run`.
 */
import { failedTest, isStackLine, type FailedTest } from './failed-test.js';
import { specTree } from './spec-tree.js';
import { summed } from './summary-counts.js';
import type { TestRunner } from './test-runner.js';

export const VITEST: TestRunner = {
  name: 'vitest',
  failures: (lines) => vitest(lines),
  // ` Tests  2 failed | 28 passed | 1 skipped (31)`, or `Tests  no tests`.
  count: (lines) => summed(lines, /^\s*Tests\s{2,}(.+?)\s*(?:\(\d+\))?\s*$/),
};

export const JEST: TestRunner = {
  name: 'jest',
  failures: (lines) => jest(lines),
  // `Tests:       2 failed, 28 passed, 30 total`.
  count: (lines) => summed(lines, /^Tests:\s+(.+)$/),
  passed: jestPassed,
};

export function vitest(lines: readonly string[]): FailedTest[] {
  const recaps: FailedTest[] = [];
  lines.forEach((line, i) => {
    const m = /^\s*FAIL\s+(\S+?)\s+>\s+(.+?)\s*$/.exec(line);
    if (m?.[1] && m[2]) recaps.push(failedTest(m[2], m[1], recapExcerpt(lines, i)));
  });
  if (recaps.length > 0) return recaps;
  const out: FailedTest[] = [];
  let file: string | undefined;
  lines.forEach((line, i) => {
    const header = /^\s*[❯›]\s+(\S+\.\w+)\s+\(\d+ tests?/.exec(line);
    if (header) file = header[1];
    const m = /^\s*×\s+(.+?)(?:\s+\d+ms)?\s*$/.exec(line);
    if (!m?.[1]) return;
    const arrow = /^\s*→\s+(.+)$/.exec(lines[i + 1] ?? '')?.[1];
    out.push(failedTest(m[1], file, arrow === undefined ? undefined : [arrow]));
  });
  return out;
}

/** From the line after the recap to the source frame (`❯ file:line:col`) or the separator. */
function recapExcerpt(lines: readonly string[], index: number): string[] {
  const out: string[] = [];
  for (let j = index + 1; j < lines.length; j++) {
    const l = lines[j] ?? '';
    if (/^\s*(❯|⎯|FAIL\s)/.test(l) || /^\s*at\s/.test(l)) break;
    out.push(l);
  }
  return out;
}

/** A file's header; jest adds the time of a file that took over five seconds: `FAIL test/x.spec.ts (5.622 s)`. */
const FAIL_HEADER = /^\s*FAIL\s+(\S+)(?:\s+\([\d.]+\s*m?s\))?\s*$/;
const PASS_HEADER = /^\s*PASS\s+\S+(?:\s+\([\d.]+\s*m?s\))?\s*$/;

export function jest(lines: readonly string[]): FailedTest[] {
  const out: FailedTest[] = [];
  let file: string | undefined;
  lines.forEach((line, i) => {
    const header = FAIL_HEADER.exec(line);
    if (header) {
      file = header[1];
      return;
    }
    if (PASS_HEADER.test(line)) file = undefined;
    const m = /^\s*● (.+?)\s*$/.exec(line);
    if (!m?.[1] || /^Console$/.test(m[1])) return;
    const load = m[1] === 'Test suite failed to run' ? 'load' : undefined;
    out.push(failedTest(m[1], file, blockExcerpt(lines, i), load));
  });
  return out;
}

/** The block's message lines, up to the code frame (`> 9 |`, ` 7 |`), a stack frame or the next block. */
function blockExcerpt(lines: readonly string[], index: number): string[] {
  const out: string[] = [];
  for (let j = index + 1; j < lines.length; j++) {
    const l = lines[j] ?? '';
    if (/^\s*(>\s*)?\d+\s*\|/.test(l) || isStackLine(l) || /^\s*●\s/.test(l) || /^\s*(FAIL|PASS)\s/.test(l)) break;
    if (/^(Test Suites|Tests):/.test(l)) break;
    out.push(l);
  }
  return out;
}

/** `--verbose` output: per file, after `PASS file`/`FAIL file`, the tree up to a blank line or the next file: `suite › title`. */
function jestPassed(lines: readonly string[]): string[] {
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
