/**
 * Failed tests from Maven Surefire's XML reports (`target/surefire-reports/TEST-*.xml`,
 * one per test class, collected by surefire-report-files.ts). PURE.
 *
 * The reports hold `<testcase name classname>` elements like any JUnit XML, with the
 * failure's `message`, its exception `type` and the stack trace as text. They name no
 * file, and they are exact where the console is not: a `@Nested` class is
 * `demo.CalcTest$Inner`, a parameterized case `positive(int)[2]`.
 *
 * Names are `demo.CalcTest#subtracts`: the form Surefire accepts back
 * (`mvn -o test -Dtest='demo.CalcTest#subtracts'`), and the one surefire-console.ts
 * gives from the output, so a baseline recorded from either source matches the other.
 * A failure of the class itself (a `@BeforeAll` that throws: an empty testcase name)
 * is named by the class.
 */
import { isStackLine, failedTest, type FailedTest } from './failed-test.js';
import { attributes, decode, PROBLEM, TESTCASE } from './junit-xml.js';

/** `demo.CalcTest` + `subtracts` → `demo.CalcTest#subtracts`; the class alone when the method is unknown. */
export function surefireTestName(className: string, method: string): string {
  if (method === '' || method === className) return className;
  return className === '' ? method : `${className}#${method}`;
}

export function parseSurefireXml(reports: readonly string[]): FailedTest[] {
  const out: FailedTest[] = [];
  for (const xml of reports) {
    for (const m of xml.matchAll(TESTCASE)) {
      const problem = PROBLEM.exec(m[2] ?? '');
      if (!problem) continue;
      const attrs = attributes(m[1] ?? '');
      const detail = attributes(problem[2] ?? '');
      const className = attrs['classname'] ?? '';
      const name = surefireTestName(className, attrs['name'] ?? '');
      out.push(failedTest(name, undefined, javaExcerpt(decode(problem[3] ?? ''), detail, className)));
    }
  }
  return out;
}

/** The testcases that passed (no failure, error or skipped child), by the same names: for the eval's PASS_TO_PASS. */
export function passedInSurefireXml(reports: readonly string[]): string[] {
  const out: string[] = [];
  for (const xml of reports) {
    for (const m of xml.matchAll(TESTCASE)) {
      if (/<(failure|error|skipped)\b/.test(m[2] ?? '')) continue;
      const attrs = attributes(m[1] ?? '');
      out.push(surefireTestName(attrs['classname'] ?? '', attrs['name'] ?? ''));
    }
  }
  return out;
}

/**
 * The exception line(s) of a Java stack trace and the first frame in the test's own
 * class (`at demo.CalcTest.subtracts(CalcTest.java:15)`: where it failed); without a
 * trace, `type: message` from the attributes.
 */
export function javaExcerpt(
  trace: string,
  detail: Readonly<Record<string, string>>,
  className: string,
): readonly string[] | undefined {
  const lines = trace.split(/\r?\n/).filter((l) => l.trim() !== '');
  const head: string[] = [];
  for (const line of lines) {
    if (isStackLine(line) || /^\s*\.\.\. \d+ more$/.test(line)) break;
    head.push(line);
  }
  const outer = className.split('$')[0] ?? className;
  const frame =
    outer === ''
      ? undefined
      : lines.find((l) => isStackLine(l) && (l.includes(`at ${outer}.`) || l.includes(`at ${outer}$`)));
  if (head.length === 0) {
    const message = detail['message'];
    const type = detail['type'];
    const text = [type, message].filter((t) => t !== undefined && t !== '').join(': ');
    if (text !== '') head.push(...text.split('\n'));
  }
  const out = [...head.slice(0, 4), ...(frame === undefined ? [] : [frame.trim()])];
  return out.length === 0 ? undefined : out;
}
