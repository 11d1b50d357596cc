/**
 * uvu (lukeed/uvu, `uvu <dir>`): its console, colours stripped. After the line naming the
 * file it ran, each suite is a line of dots and crosses; each failure is then printed as
 *
 *      FAIL  <suite>  "<test>"          (no suite for the default one)
 *       <message>  (<operator>)
 *            <diff lines>
 *       at <stack frames>
 *
 * and the run ends with `Total: N` over `Passed: M`. A passing test is a dot, never named.
 * The failure line starts with exactly three spaces (uvu's two, then its ` FAIL ` badge):
 * jest's and vitest's ` FAIL  path` lines have one, and end in no quoted name. The name is
 * `<suite> › <test>`, as jest joins its describe blocks. PURE.
 */
import { failedTest, firstOwnFrame, isStackLine, type FailedTest } from './failed-test.js';
import type { TestRunner } from './test-runner.js';

type Lines = readonly string[];

const FAILURE = /^ {3}FAIL {2}(?:(\S.*?) {2})?"(.+)"\s*$/;

export const UVU: TestRunner = {
  name: 'uvu',
  failures: uvuFailures,
  count: uvuTotal,
};

export function uvuFailures(lines: Lines): FailedTest[] {
  const out: FailedTest[] = [];
  lines.forEach((line, i) => {
    const m = FAILURE.exec(line);
    if (!m?.[2]) return;
    const body: string[] = [];
    for (let j = i + 1; j < lines.length && !FAILURE.exec(lines[j] ?? '') && !isRunLine(lines[j] ?? ''); j++)
      body.push(lines[j] ?? '');
    const name = m[1] === undefined ? m[2] : `${m[1]} › ${m[2]}`;
    out.push(
      failedTest(
        name,
        firstOwnFrame(body),
        body.filter((l) => !isStackLine(l)),
      ),
    );
  });
  return out;
}

/** A suite's progress line (` name  • ✘   (1 / 2)`) or the summary: the failure's text ended before it. */
function isRunLine(line: string): boolean {
  return /\(\d+ \/ \d+\)\s*$/.test(line) || /^\s*Total:\s+\d+\s*$/.test(line);
}

/** `Total: N` with `Passed: M` on the next line: the tests uvu ran (a skipped one is not in its total). */
function uvuTotal(lines: Lines): number | undefined {
  for (let i = 0; i + 1 < lines.length; i++) {
    const total = /^\s*Total:\s+(\d+)\s*$/.exec(lines[i] ?? '');
    if (total?.[1] !== undefined && /^\s*Passed:\s+\d+\s*$/.test(lines[i + 1] ?? '')) return Number(total[1]);
  }
  return undefined;
}
