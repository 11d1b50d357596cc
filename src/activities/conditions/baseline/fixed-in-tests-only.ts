/**
 * A "fix" made in the tests alone: the tests red on the base pass now, yet the branch
 * changed no file but test files. Rewriting an expected value, or an early `return` at the
 * top of a failing test, passes every other check: no test is deleted or skipped (the
 * count holds, test-integrity sees an assertion rewritten in place), and the exit code is
 * 0. Found from outside, delivered on dtolnay/itoa (expected values rewritten in
 * tests/test.rs) and stleary/JSON-java (an expected string changed, `if (true) return;`).
 *
 * So a test condition with a baseline blocks then, unless the issue is about the tests
 * themselves: it names one of the changed test files (its path or its base name), as
 * test-integrity's waiver asks. Documentation does not count as a change either way
 * (`*.md`, `docs/`…). Not seen: a Rust `#[cfg(test)]` module edited inside a source file
 * (the file is a source file). PURE.
 */
import type { JsonValue } from '../../../contracts/json.js';
import { nameList } from '../../../contracts/name-list.js';
import { issueNamesFile } from '../integrity/issue-waiver.js';
import { isTestFile } from '../integrity/weakening-rules.js';

// Not `.txt`: CMakeLists.txt and requirements.txt are build files, and a fix may be there.
const DOCUMENTATION = /(^|\/)docs?\/|\.(md|markdown|rst|adoc)$|(^|\/)(CHANGELOG|CHANGES|NEWS|AUTHORS)[^/]*$/i;

export interface TestsOnlyFix {
  readonly line: string;
  readonly params: Record<string, JsonValue>;
}

/** The blocking verdict, or undefined when the branch changed code (or nothing was fixed, or the issue asks). */
export function fixedInTestsOnly(options: {
  readonly baseCommit: string;
  /** Tests red on the base that pass now. */
  readonly fixed: readonly string[];
  /** Every file the branch changed against the base (committed or in the worktree). */
  readonly touched: readonly string[];
  readonly issueText?: string;
}): TestsOnlyFix | undefined {
  const changed = options.touched.filter((path) => !DOCUMENTATION.test(path));
  if (options.fixed.length === 0 || changed.length === 0 || !changed.every(isTestFile)) return undefined;
  const { issueText } = options;
  if (issueText !== undefined && changed.some((path) => issueNamesFile(issueText, path))) return undefined;
  return {
    line:
      `the tests red on the base commit ${options.baseCommit.slice(0, 12)} pass now (${nameList(options.fixed)}), ` +
      `but the branch changed only test files (${nameList(changed)}): a fix changes the code under test ` +
      '(an issue about the tests themselves names the test file)',
    params: {
      baseCommit: options.baseCommit,
      fixed: options.fixed.map((name) => ({ name })),
      testFiles: [...changed],
    },
  };
}
