/**
 * A test command's run held against the base's measure (tests-ran.ts), read from the
 * baseline the preflight (or an earlier judgement) cached; the base is never run for it.
 * Undefined when there is no measure: no base recorded, or the base was never measured.
 * Tests it tells as fixed must have been fixed by more than the tests (fixed-in-tests-only.ts):
 * when the branch changed code and tests, that takes one more run of the command, with
 * the code files as on the base (tests-alone.ts).
 */
import type { ConditionResult } from '../../../contracts/activities.js';
import type { JsonValue } from '../../../contracts/json.js';
import type { CommandRunner } from '../../process/command-runner.js';
import { baseCommitsOf, type BaseCommits } from '../base-commit.js';
import { changedFiles, presentOnBase } from './changed-files.js';
import { fixedInTestsOnly } from './fixed-in-tests-only.js';
import { failingWithBaseTests, fixedByTestsAlone } from './tests-alone.js';
import type { TestReports } from '../test-reports/parse-test-failures.js';
import { testsSeen } from '../test-reports/tests-seen.js';
import { cachedBaseline } from './baseline-run.js';
import {
  FIXED_IN_TESTS_ONLY_PATTERN,
  TESTS_NOT_RUN_PATTERN,
  TESTS_ONLY_LABEL,
} from '../../../contracts/tests-not-run.js';
import { judgeTestsRan, type TestsRanVerdict } from './tests-ran.js';

export async function testsRanSinceBase(run: {
  readonly commands: CommandRunner;
  readonly worktreePath: string;
  readonly command: string;
  /** The command's stdout and stderr. */
  readonly output: string;
  readonly reports: TestReports;
  /** The tests the run names failing (accepted against the base): never told as fixed. */
  readonly failing?: readonly string[];
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  readonly issueLabels?: readonly string[];
  /** The closure's bases (run-validators.ts); without it, this check finds its own. */
  readonly bases?: BaseCommits;
}): Promise<TestsRanVerdict | undefined> {
  const { worktreePath, command, output, reports } = run;
  const commit = await (run.bases ?? baseCommitsOf(worktreePath))();
  const baseline = commit === undefined ? undefined : await cachedBaseline(worktreePath, commit, command);
  if (commit === undefined || baseline === undefined) return undefined;
  const verdict = judgeTestsRan(baseline, testsSeen(output, reports), run.failing);
  if (verdict.blocks || verdict.fixed === undefined || verdict.fixed.length === 0) return verdict;
  // Fixed: by a change of the code under test, or only of the tests?
  const changed = await changedFiles(worktreePath, commit);
  if (changed === undefined || changed.tests.length === 0) return verdict;
  const testsOnlyIssue = run.issueLabels?.includes(TESTS_ONLY_LABEL) ?? false;
  const swap = {
    commands: run.commands,
    worktreePath,
    base: commit,
    command,
    timeoutMs: run.timeoutMs,
    ...(run.signal ? { signal: run.signal } : {}),
    fixed: verdict.fixed,
  };
  const alone =
    changed.code.length === 0
      ? undefined
      : await fixedByTestsAlone({
          ...swap,
          codeFiles: changed.code,
          ...(changed.testsOnBaseCode === undefined ? {} : { testsOnBaseCode: changed.testsOnBaseCode }),
        });
  // Not asked when the first answer already blocks, the issue is about the tests, tests live
  // in the code files (Rust's in-source tests: their base version is the base's code), or
  // every changed test file is new: the base's tests are then the ones that just passed.
  const baseTests =
    alone === undefined || alone.length > 0 || testsOnlyIssue || changed.testsOnBaseCode !== undefined
      ? []
      : await presentOnBase(worktreePath, commit, changed.tests);
  const withBaseTests =
    baseTests.length === 0 ? undefined : await failingWithBaseTests({ ...swap, testFiles: changed.tests });
  const testsOnly = fixedInTestsOnly({
    baseCommit: commit,
    fixed: verdict.fixed,
    changed,
    ...(alone === undefined ? {} : { fixedByTestsAlone: alone }),
    ...(withBaseTests === undefined ? {} : { failingWithBaseTests: withBaseTests }),
    testsOnlyIssue,
  });
  return testsOnly === undefined
    ? verdict
    : { blocks: true, line: testsOnly.line, params: testsOnly.params, pattern: FIXED_IN_TESTS_ONLY_PATTERN };
}

/** The failed condition of a test command whose tests did not run as on the base. */
export function testsNotRunResult(
  base: Pick<ConditionResult, 'validator' | 'command' | 'output'>,
  exitCode: number,
  verdict: Extract<TestsRanVerdict, { blocks: true }>,
  params: Readonly<Record<string, JsonValue>>,
): ConditionResult {
  return {
    ...base,
    exitCode,
    passed: false,
    failurePattern: verdict.pattern ?? TESTS_NOT_RUN_PATTERN,
    summary: `\`${base.command}\` exited ${exitCode}, but ${verdict.line}`,
    params: { ...params, ...verdict.params },
    unrecoverable: false,
  };
}
