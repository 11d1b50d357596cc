/**
 * jest: `FAIL path` headers, then a `● suite › name` block for each failure holding
 * the matcher message and Expected/Received, then a code frame and stack. A file that
 * could not load at all reports `● Test suite failed to run`. PURE.
 */
import { failedTest, isStackLine, type FailedTest } from './failed-test.js';

export function jest(lines: readonly string[]): FailedTest[] {
  const out: FailedTest[] = [];
  let file: string | undefined;
  lines.forEach((line, i) => {
    const header = /^\s*FAIL\s+(\S+)\s*$/.exec(line);
    if (header) {
      file = header[1];
      return;
    }
    if (/^\s*PASS\s+\S+\s*$/.test(line)) file = undefined;
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
