/**
 * pytest's text output (used when its JUnit XML report is not available). Failures
 * are named by pytest's node id (`tests/test_math.py::TestGroup::test_dict`), what
 * `pytest <id>` accepts and what the JUnit reader rebuilds, so a baseline recorded
 * from either form matches the other. Two sources:
 *
 * - the short test summary: `FAILED <id> - <message>` (the message is cut by pytest),
 *   `ERROR <path> - ...` for a module that could not be collected;
 * - the `____ Class.test_name ____` sections of FAILURES/ERRORS, whose `E   ` lines are
 *   the assertion and its explanation, ending in `path.py:4: AssertionError`.
 *
 * The sections give the excerpt, the summary gives the id (sections name the test
 * without its file). PURE.
 */
import { failedTest, type FailedTest } from './failed-test.js';
import { parseJUnitXml, passedInJUnitXml } from './pytest-junit.js';
import { summed } from './summary-counts.js';
import type { TestRunner } from './test-runner.js';

/** pytest's text is parsed only when it is pytest's: `FAILED x`/`ERROR x` alone are too common. */
const looksLikePytest = (lines: readonly string[]): boolean =>
  lines.some((l) => /^={3,} (short test summary info|FAILURES|ERRORS) ={3,}$/.test(l));

/** pytest: its JUnit XML report (report-files.ts asks for it), its summary and sections. */
export const PYTEST: TestRunner = {
  name: 'pytest',
  reportFailures: (reports) => (reports.junitXml === undefined ? [] : parseJUnitXml(reports.junitXml)),
  failures: (lines) => (looksLikePytest(lines) ? pytest(lines) : []),
  // `==== 2 failed, 28 passed, 1 skipped in 0.12s ====` (or `-q`'s bare line), `no tests ran`.
  count: (lines) => summed(lines, /^(?:=+ )?((?:\d+ \w+|no tests ran)(?:, \d+ \w+)*) in [\d.]+s\b.*$/),
  reportPassed: (reports) => (reports.junitXml === undefined ? [] : passedInJUnitXml(reports.junitXml)),
};

export function pytest(lines: readonly string[]): FailedTest[] {
  const sections = sectionExcerpts(lines);
  const out: FailedTest[] = [];
  for (const line of lines) {
    const m = /^(FAILED|ERROR) (\S+?)(?: - (.*))?\s*$/.exec(line);
    if (!m?.[2] || m[2].startsWith('-')) continue;
    const id = m[2];
    const file = id.split('::')[0];
    const load = m[1] === 'ERROR' && !id.includes('::') ? 'load' : undefined;
    const section = sections.get(sectionKey(id)) ?? (load ? sections.get(`collecting ${id}`) : undefined);
    out.push(failedTest(id, file, section ?? (m[3] === undefined ? undefined : [m[3]]), load));
  }
  return out;
}

/** `tests/x.py::TestGroup::test_dict[1]` → `TestGroup.test_dict[1]`, the section title. */
function sectionKey(id: string): string {
  return id.split('::').slice(1).join('.');
}

/** Section title → its `E   ` lines (or, without any, its last lines). */
function sectionExcerpts(lines: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let title: string | undefined;
  let body: string[] = [];
  const flush = (): void => {
    if (title === undefined) return;
    const errors = body.filter((l) => /^E\s/.test(l)).map((l) => l.replace(/^E\s{0,3}/, ''));
    const where = body.find((l) => /^\S+\.py:\d+: [A-Z]\w*$/.test(l));
    out.set(title, errors.length > 0 ? [...errors, ...(where ? [where] : [])] : body.slice(-3));
  };
  for (const line of lines) {
    const section = /^_{3,} (?:ERROR )?(.+?) _{3,}$/.exec(line);
    const banner = /^(={3,}|-{3,}) .* (={3,}|-{3,})$/.test(line);
    if (section?.[1] || banner) {
      flush();
      title = section?.[1];
      body = [];
      continue;
    }
    if (title !== undefined) body.push(line);
  }
  flush();
  return out;
}
