/**
 * Failed tests from pytest's JUnit XML report (`--junitxml`, written with
 * `junit_family=xunit1` so each testcase carries its `file`), read with the shared reader
 * (junit-xml.ts). PURE. A report it cannot read yields no failures and the caller falls
 * back to the text parsers.
 *
 * Names are pytest node ids (`tests/test_math.py::TestGroup::test_dict`), rebuilt from
 * `file` and `classname` exactly as the text parser reads them from the short summary,
 * so baselines from either source match. A module that failed to collect
 * (`classname=""`, `<error message="collection failure">`) is a load failure named by
 * its file.
 */
import { failedTest, type FailedTest } from './failed-test.js';
import { attributes, decode, PROBLEM, TESTCASE } from './junit-xml.js';

export function parseJUnitXml(xml: string): FailedTest[] {
  const out: FailedTest[] = [];
  for (const m of xml.matchAll(TESTCASE)) {
    const problem = PROBLEM.exec(m[2] ?? '');
    if (!problem) continue;
    const attrs = attributes(m[1] ?? '');
    const detail = attributes(problem[2] ?? '');
    const body = decode(problem[3] ?? '');
    const file = attrs['file'];
    const classname = attrs['classname'] ?? '';
    const name = attrs['name'] ?? '';
    const load = classname === '' && problem[1] === 'error' ? 'load' : undefined;
    out.push(failedTest(testId(file, classname, name), file, excerpt(detail['message'], body), load));
  }
  return out;
}

/**
 * The testcases that passed (no failure, error or skipped child), by the same ids: what
 * the eval's task miner reads to name PASS_TO_PASS tests (src/dev/eval).
 */
export function passedInJUnitXml(xml: string): string[] {
  const out: string[] = [];
  for (const m of xml.matchAll(TESTCASE)) {
    if (/<(failure|error|skipped)\b/.test(m[2] ?? '')) continue;
    const attrs = attributes(m[1] ?? '');
    out.push(testId(attrs['file'], attrs['classname'] ?? '', attrs['name'] ?? ''));
  }
  return out;
}

/** `tests/test_math.py` + `tests.test_math.TestGroup` + `test_dict` → `tests/test_math.py::TestGroup::test_dict`. */
function testId(file: string | undefined, classname: string, name: string): string {
  if (file === undefined) return classname === '' ? name : `${classname}::${name}`;
  if (classname === '') return file;
  const module = file.replace(/\.py$/, '').replace(/[\\/]/g, '.');
  const rest = classname === module ? '' : classname.startsWith(`${module}.`) ? classname.slice(module.length + 1) : '';
  return [file, ...(rest === '' ? [] : rest.split('.')), name].join('::');
}

/** pytest's `E   ` lines and the `file.py:4: AssertionError` line when the body has them, else the message. */
function excerpt(message: string | undefined, body: string): string[] {
  const lines = body.split(/\r?\n/);
  const errors = lines.filter((l) => /^E\s/.test(l)).map((l) => l.replace(/^E\s{0,3}/, ''));
  if (errors.length > 0) {
    const where = lines.find((l) => /^\S+\.py:\d+: [A-Z]\w*$/.test(l));
    return [...errors, ...(where ? [where] : [])];
  }
  if (message !== undefined && message.trim() !== '' && message !== 'collection failure') return message.split('\n');
  return lines.filter((l) => l.trim() !== '').slice(-3);
}
