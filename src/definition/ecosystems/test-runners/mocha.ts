/**
 * mocha's default spec reporter. After `N failing`, each failure is numbered and its
 * title is spread over indented lines (suite, nested suite, then the test with a
 * trailing colon), then the error, an optional `+ expected - actual` diff and a stack:
 *
 *     2) math
 *          adds:
 *
 *         AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:
 *         ...
 *         at Context.<anonymous> (test/math.test.js:4:35)
 *
 * The name is mocha's full title (suites and test joined by spaces, as `--grep` and
 * its JSON reporter use it); the file is the first stack frame outside node_modules
 * and node internals. The numbered lines of the progress tree above `N failing` are
 * not failures to report twice. PURE.
 */
import { failedTest, firstOwnFrame, isStackLine, type FailedTest } from './failed-test.js';
import { specTree } from './spec-tree.js';
import { summed } from './summary-counts.js';
import type { TestRunner } from './test-runner.js';

export const MOCHA: TestRunner = {
  name: 'mocha',
  failures: (lines) => mocha(lines),
  // `  28 passing (12ms)` and `  2 failing`.
  count: (lines) => summed(lines, /^\s*(\d+ (?:passing|failing))\b/),
  passed: mochaPassed,
};

const HEADER = /^\s+(\d+)\) (.+?)\s*$/;

export function mocha(lines: readonly string[]): FailedTest[] {
  const start = lines.findIndex((l) => /^\s*\d+ failing\s*$/.test(l));
  if (start === -1) return [];
  const out: FailedTest[] = [];
  let i = start + 1;
  while (i < lines.length) {
    const header = HEADER.exec(lines[i] ?? '');
    if (!header?.[2]) {
      i++;
      continue;
    }
    const title: string[] = [header[2]];
    while (!title[title.length - 1]?.endsWith(':') && i + 1 < lines.length && /^\s+\S/.test(lines[i + 1] ?? '')) {
      i++;
      title.push((lines[i] ?? '').trim());
    }
    const body: string[] = [];
    for (i++; i < lines.length && !HEADER.test(lines[i] ?? ''); i++) body.push(lines[i] ?? '');
    const name = title.join(' ').replace(/:$/, '');
    // The message already states expected and actual; mocha's own diff after it repeats them.
    const diff = body.findIndex((l) => /^\s*\+ expected - actual\s*$/.test(l));
    const message = (diff === -1 ? body : body.slice(0, diff)).filter((l) => !isStackLine(l));
    out.push(failedTest(name, firstOwnFrame(body), message));
  }
  return out;
}

/** The spec reporter's `✓ title` under its suites, up to `N passing`: the full title, joined by spaces, as the recap names it. */
function mochaPassed(lines: readonly string[]): string[] {
  const end = lines.findIndex((l) => /^\s*\d+ passing\b/.test(l));
  return end === -1 ? [] : specTree(lines.slice(0, end), ' ');
}
