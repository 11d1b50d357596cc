/**
 * A test command's run held against the base's measure (tests-ran.ts), read from the
 * baseline the preflight (or an earlier judgement) cached; the base is never run for it.
 * Undefined when there is no measure: no base recorded, or the base was never measured.
 */
import type { ConditionResult } from '../../../contracts/activities.js';
import type { JsonValue } from '../../../contracts/json.js';
import { baseCommit } from '../base-commit.js';
import type { TestReports } from '../test-reports/parse-test-failures.js';
import { testsSeen } from '../test-reports/tests-seen.js';
import { cachedBaseline } from './baseline-run.js';
import { TESTS_NOT_RUN_PATTERN } from '../../../contracts/tests-not-run.js';
import { judgeTestsRan, type TestsRanVerdict } from './tests-ran.js';

export async function testsRanSinceBase(
  worktreePath: string,
  command: string,
  output: string,
  reports: TestReports,
): Promise<TestsRanVerdict | undefined> {
  const commit = await baseCommit(worktreePath);
  const baseline = commit === undefined ? undefined : await cachedBaseline(worktreePath, commit, command);
  return baseline === undefined ? undefined : judgeTestsRan(baseline, testsSeen(output, reports));
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
    failurePattern: TESTS_NOT_RUN_PATTERN,
    summary: `\`${base.command}\` exited ${exitCode}, but ${verdict.line}`,
    params: { ...params, ...verdict.params },
    unrecoverable: false,
  };
}
