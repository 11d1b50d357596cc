/**
 * CTest's JUnit report (`ctest --output-junit <file>`, CTest 3.21 and later). PURE.
 * Its shape differs from pytest's, so it has its own reader (junit-xml.ts's would name
 * a test `sub::sub` from its equal `name` and `classname`):
 *
 *   <testcase name="sub" classname="sub" time="0.001" status="fail">
 *     <failure message=""/>
 *     <system-out>tests/test_sub.c:8: calc_sub(3, 2): expected 1, got 5</system-out>
 *   </testcase>
 *
 * `status` is `run`, `fail`, `notrun` or `disabled`. A `notrun` test is one CTest
 * counts as failed (its executable is missing, a fixture failed) unless its `<skipped>`
 * says the test skipped itself (`SKIP_RETURN_CODE=77`, `SKIP_REGULAR_EXPRESSION_MATCHED`).
 * Names are CTest's, as on the console (ctest-console.ts), so a baseline from either
 * matches. The report says neither why a test failed (`message` is empty) nor how (a
 * segfault, a timeout): CTest's status comes from the console's FAILED list when the
 * caller has it.
 */
import { attributes, decode, TESTCASE } from './junit-xml.js';
import { ctestExcerpt, type CTestConsole } from './ctest-console.js';
import { failedTest, type FailedTest } from './failed-test.js';

/** A CTest report: a testcase carrying CTest's `status` attribute. */
const SIGNATURE = /<testcase\b[^>]*\bstatus="(?:run|fail|notrun|disabled)"/;

export function isCTestJUnit(xml: string): boolean {
  return SIGNATURE.test(xml);
}

/**
 * The failing tests of each report, in report order; the console gives CTest's statuses
 * (`SEGFAULT`, `Timeout`) and the source root, for the excerpt.
 */
export function parseCTestJUnit(
  xmls: readonly string[],
  console: CTestConsole = { statuses: new Map() },
): FailedTest[] {
  const out: FailedTest[] = [];
  for (const xml of xmls) {
    if (!isCTestJUnit(xml)) continue;
    for (const m of xml.matchAll(TESTCASE)) {
      const attrs = attributes(m[1] ?? '');
      const body = m[2] ?? '';
      const name = attrs['name'];
      const status = failureStatus(attrs['status'], body);
      if (name === undefined || status === undefined) continue;
      const output = decode(/<system-out>([\s\S]*?)<\/system-out>/.exec(body)?.[1] ?? '').split(/\r?\n/);
      out.push(failedTest(name, undefined, ctestExcerpt(output, console.statuses.get(name) ?? status, console.root)));
    }
  }
  return out;
}

/** The passing tests, by the same names (what the eval reads as PASS_TO_PASS). */
export function passedInCTestJUnit(xmls: readonly string[]): string[] {
  return xmls
    .filter(isCTestJUnit)
    .flatMap((xml) => [...xml.matchAll(TESTCASE)].map((m) => attributes(m[1] ?? '')))
    .filter((a) => a['status'] === 'run' && a['name'] !== undefined)
    .map((a) => a['name'] ?? '');
}

/** Why CTest counts a testcase as failed, or undefined when it passed, was skipped or disabled. */
function failureStatus(status: string | undefined, body: string): string | undefined {
  if (status === 'fail') return 'Failed';
  if (status !== 'notrun') return undefined;
  const skipped = /<skipped\b((?:[^>"']|"[^"]*"|'[^']*')*?)\/?>/.exec(body);
  const message = attributes(skipped?.[1] ?? '')['message'] ?? '';
  return /^SKIP_/.test(message) ? undefined : `Not Run${message === '' ? '' : ` (${message})`}`;
}
