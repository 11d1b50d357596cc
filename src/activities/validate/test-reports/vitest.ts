/**
 * vitest: the `FAIL  file > suite > name` recaps of its "Failed Tests" section, each
 * followed by the error (`AssertionError: expected 2 to be 1`) and the diff; the `×
 * name` tree lines (with `→ message`) only when no recap exists (a truncated or
 * interrupted run). PURE.
 */
import { failedTest, type FailedTest } from './failed-test.js';

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
