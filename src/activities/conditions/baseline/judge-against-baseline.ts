/**
 * A failed test validator with `baseline` set, judged against the base commit: which
 * of its failing tests are regressions and which failed there already, and whether it
 * still blocks (classify-failures). Undefined when no judgement is possible (no base
 * recorded, the base could not be run): the failure then stands as it is.
 */
import type { BaselineMode } from '../../../contracts/definition.js';
import type { JsonValue } from '../../../contracts/json.js';
import type { CommandRunner } from '../../process/command-runner.js';
import { baseCommit } from '../base-commit.js';
import { capExcerpts, type FailedTest } from '../test-reports/failed-test.js';
import { baselineFailures } from './baseline-run.js';
import { classifyFailures } from './classify-failures.js';

export interface BaselineJudgement {
  readonly blocks: boolean;
  /** One line for the summary. */
  readonly line: string;
  readonly params: Record<string, JsonValue>;
}

export async function judgeAgainstBaseline(options: {
  readonly commands: CommandRunner;
  readonly signal?: AbortSignal;
  readonly worktreePath: string;
  readonly command: string;
  readonly timeoutMs: number;
  readonly mode: BaselineMode;
  readonly failedNow: readonly FailedTest[];
  readonly issueText?: string;
}): Promise<BaselineJudgement | undefined> {
  const commit = await baseCommit(options.worktreePath);
  if (commit === undefined) return undefined;
  const baseline = await baselineFailures(options.commands, {
    worktreePath: options.worktreePath,
    commit,
    command: options.command,
    timeoutMs: options.timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (baseline === undefined) return undefined;
  const classified = classifyFailures(options.failedNow, baseline, options.mode, options.issueText);
  return {
    blocks: classified.blocks,
    line: `baseline ${options.mode}: ${classified.reason}`,
    params: {
      baseCommit: commit,
      regressions: capExcerpts(classified.regressions).map(toJson),
      preExisting: classified.preExisting.map(toJson),
    },
  };
}

function toJson(t: FailedTest): JsonValue {
  return {
    name: t.name,
    ...(t.file === undefined ? {} : { file: t.file }),
    ...(t.excerpt === undefined ? {} : { excerpt: t.excerpt }),
  };
}
