/**
 * node's test runner (`node --test`): the TAP reporter (`not ok N - name` with a YAML
 * block holding `location`, `error`, `expected`, `actual`) and the spec reporter
 * (`✖ name (1.2ms)` followed by the error, and a "failing tests" recap preceded by
 * `test at file:line:col`). Suites that fail only because a child failed are left out:
 * the retry prompt should name the tests to fix, not their containers. PURE.
 */
import { failedTest, isStackLine, type FailedTest } from './failed-test.js';
import type { TestRunner } from './test-runner.js';

type Lines = readonly string[];

export const NODE_TEST: TestRunner = {
  name: 'node:test',
  failures: (lines) => [...nodeTap(lines), ...nodeSpec(lines)],
  count: tapTotals,
  passed: (lines) => [...tapPassed(lines), ...specPassed(lines)],
};

export function nodeTap(lines: readonly string[]): FailedTest[] {
  const out: FailedTest[] = [];
  lines.forEach((line, i) => {
    const m = /^\s*not ok \d+ - (.+?)(\s+#\s*(?:TODO|SKIP)\b.*)?$/.exec(line);
    // A TODO test may fail without failing the run (TAP): not a failing test.
    if (!m?.[1] || m[2] !== undefined) return;
    const block = yamlBlockAfter(lines, i);
    if (block.some((l) => /failureType:\s*'?subtestsFailed/.test(l))) return;
    const location = block.map((l) => /^\s*location:\s*'?(.+?):\d+:\d+'?\s*$/.exec(l)?.[1]).find(Boolean);
    out.push(failedTest(unescapeTap(m[1]), location, tapExcerpt(block)));
  });
  return out;
}

function yamlBlockAfter(lines: readonly string[], index: number): string[] {
  if (!/^\s*---\s*$/.test(lines[index + 1] ?? '')) return [];
  const block: string[] = [];
  for (let j = index + 2; j < lines.length && !/^\s*\.\.\.\s*$/.test(lines[j] ?? ''); j++) block.push(lines[j] ?? '');
  return block;
}

/** `error:` (inline or a `|-` block), then `expected:` and `actual:` when given. */
function tapExcerpt(block: readonly string[]): string[] {
  const out: string[] = [];
  const at = block.findIndex((l) => /^\s*error:/.test(l));
  if (at !== -1) {
    const line = block[at] ?? '';
    const inline = /^\s*error:\s+(?![|>])(\S.*)$/.exec(line)?.[1];
    if (inline !== undefined) out.push(inline.replace(/^'(.*)'$/, '$1'));
    else {
      const indent = /^\s*/.exec(line)?.[0].length ?? 0;
      for (let j = at + 1; j < block.length; j++) {
        const l = block[j] ?? '';
        if (l.trim() !== '' && (/^\s*/.exec(l)?.[0].length ?? 0) <= indent) break;
        out.push(l.trim());
      }
    }
  }
  for (const key of ['expected', 'actual']) {
    const line = block.find((l) => new RegExp(`^\\s*${key}:`).test(l));
    if (line !== undefined) out.push(line.trim());
  }
  return out;
}

/** Spec reporter: `✖ name (1.2ms)`; suites are announced by `▶ name` and excluded. */
export function nodeSpec(lines: readonly string[]): FailedTest[] {
  const suites = new Set(lines.map((l) => /^\s*▶ (.+)$/.exec(l)?.[1]?.trim()).filter((s): s is string => !!s));
  const out: FailedTest[] = [];
  let location: string | undefined;
  lines.forEach((line, i) => {
    const at = /^\s*test at (.+?):\d+:\d+\s*$/.exec(line);
    if (at) {
      location = at[1];
      return;
    }
    const m = /^(\s*)✖ (.+?)(?: \([\d.]+m?s\))?\s*$/.exec(line);
    if (!m?.[2] || m[2] === 'failing tests:' || suites.has(m[2])) return;
    out.push(failedTest(m[2], location, specExcerpt(lines, i, m[1]?.length ?? 0)));
    location = undefined;
  });
  return out;
}

/** The lines indented under the `✖` line, up to the first stack frame. */
function specExcerpt(lines: readonly string[], index: number, indent: number): string[] {
  const out: string[] = [];
  for (let j = index + 1; j < lines.length; j++) {
    const l = lines[j] ?? '';
    if (l.trim() === '') {
      out.push('');
      continue;
    }
    if ((/^\s*/.exec(l)?.[0].length ?? 0) <= indent || isStackLine(l)) break;
    out.push(l);
  }
  return out;
}

function unescapeTap(name: string): string {
  return name.replace(/\\#/g, '#').replace(/\\\\/g, '\\');
}

/** TAP `# pass 28` / `# fail 2`, the spec reporter's `ℹ pass 28`. */
function tapTotals(lines: Lines): number | undefined {
  let total: number | undefined;
  for (const l of lines) {
    const m = /^(?:#|ℹ) (pass|fail) (\d+)$/.exec(l);
    if (m) total = (total ?? 0) + Number(m[2]);
  }
  return total;
}

/** TAP `ok N - name`: the test's own name. */
const tapPassed = (lines: Lines): string[] =>
  lines
    .map((l) => /^\s*ok \d+ - (.+?)\s*$/.exec(l)?.[1])
    .filter((n): n is string => n !== undefined && !/\s#\s*(SKIP|TODO)\b/i.test(n));

/** The spec reporter's `✔ name` (not in mocha's output, whose summary says `N passing`). */
function specPassed(lines: Lines): string[] {
  if (lines.some((l) => /^\s*\d+ passing\b/.test(l))) return [];
  return lines
    .map((l) => /^\s*✔ (.+?)(?: \([\d.]+m?s\))?\s*$/.exec(l)?.[1])
    .filter((n): n is string => n !== undefined);
}
