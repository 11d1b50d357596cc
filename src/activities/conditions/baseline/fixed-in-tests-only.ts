/**
 * A "fix" made in the tests alone: the tests red on the base pass now, yet what made them
 * pass is a change of the tests, not of the code under test. Rewriting an expected value,
 * or an early `return` at the top of a failing test, passes every other check: no test is
 * deleted or skipped (the count holds, test-integrity sees an assertion rewritten in
 * place), and the exit code is 0. Found from outside, delivered on dtolnay/itoa (expected
 * values rewritten in tests/test.rs) and stleary/JSON-java (an expected string changed,
 * `if (true) return;`).
 *
 * Three ways to tell (changed-files.ts sorts the files):
 * - the branch changed no file but tests (documentation aside): nothing else can have
 *   fixed them;
 * - it changed code too, but the tests pass as well with this branch's tests on the base's
 *   code (tests-alone.ts): a comment or a change that does nothing, beside the rewritten
 *   test, is not a fix;
 * - it changed code too, but with the base's version of the tests the branch's code still
 *   fails them (tests-alone.ts): a wrong change of the code beside a loosened assertion.
 * Either blocks, unless the issue is about the tests themselves: it carries the label
 * `agent:tests-only` (TESTS_ONLY_LABEL). Not its words: a bug report names the failing
 * test's file as often as not, and for Rust's in-source tests the test file is the code's
 * own. PURE.
 */
import type { JsonValue } from '../../../contracts/json.js';
import { nameList } from '../../../contracts/name-list.js';
import type { ChangedFiles } from './changed-files.js';
import { TESTS_ONLY_LABEL } from '../../../contracts/tests-not-run.js';

export interface TestsOnlyFix {
  readonly line: string;
  readonly params: Record<string, JsonValue>;
}

/** The blocking verdict, or undefined when the code fixed them (or nothing was fixed, or the issue asks). */
export function fixedInTestsOnly(options: {
  readonly baseCommit: string;
  /** Tests red on the base that pass now. */
  readonly fixed: readonly string[];
  readonly changed: ChangedFiles;
  /** With code changed: those of `fixed` that pass with this branch's tests on the base's code. */
  readonly fixedByTestsAlone?: readonly string[];
  /** With code changed: those of `fixed` that the branch's code fails with the base's version of the tests. */
  readonly failingWithBaseTests?: readonly string[];
  /** The issue carries TESTS_ONLY_LABEL. */
  readonly testsOnlyIssue: boolean;
}): TestsOnlyFix | undefined {
  const { tests, code } = options.changed;
  const alone = code.length === 0 ? options.fixed : (options.fixedByTestsAlone ?? []);
  const stillFailing = code.length === 0 || alone.length > 0 ? [] : (options.failingWithBaseTests ?? []);
  const fixed = alone.length > 0 ? alone : stillFailing;
  if (fixed.length === 0 || tests.length === 0) return undefined;
  if (options.testsOnlyIssue) return undefined;
  const at = options.baseCommit.slice(0, 12);
  const asked = `(an issue about the tests themselves carries the label ${TESTS_ONLY_LABEL})`;
  const line =
    code.length === 0
      ? `the tests red on the base commit ${at} no longer fail (${nameList(fixed)}) and the branch changed only test files (${nameList(tests)}): a fix changes the code under test ${asked}`
      : stillFailing.length > 0
        ? `the tests red on the base commit ${at} pass now (${nameList(fixed)}) only as this branch changed them: with their base version (${nameList(tests)} as on the base), this branch's code still fails them, so the code is still wrong where they look ${asked}`
        : `the tests red on the base commit ${at} no longer fail (${nameList(fixed)}), and they pass as well with this branch's tests on the base's code (${nameList(code)} as on the base): the test changes made them pass (${nameList(tests)}), not the code changes ${asked}`;
  return {
    line,
    params: {
      baseCommit: options.baseCommit,
      fixed: fixed.map((name) => ({ name })),
      testFiles: [...tests],
      ...(code.length === 0 ? {} : { codeFiles: [...code] }),
      ...(stillFailing.length === 0 ? {} : { failingWithBaseTests: [...stillFailing] }),
    },
  };
}
