/**
 * A failed test validator with `baseline` set, judged against the base commit: which
 * of its failing tests are regressions, which failed there already (each blocking or
 * not, and why), which the branch fixed, and whether it still blocks
 * (classify-failures, with the issue text and the files the branch changed).
 * Undefined when no judgement is possible (no base recorded, the base could not be
 * run): the failure then stands as it is.
 */
import type { BaselineMode } from '../../../contracts/definition.js';
import type { JsonValue } from '../../../contracts/json.js';
import type { CommandRunner } from '../../process/command-runner.js';
import { git } from '../../workspace/git/git.js';
import { baseCommit } from '../base-commit.js';
import { capExcerpts, type FailedTest } from '../test-reports/failed-test.js';
import { baselineFailures } from './baseline-run.js';
import { classifyFailures, type PreExistingFailure } from './classify-failures.js';

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
  const touchedFiles = await filesTouchedSince(options.worktreePath, commit);
  const classified = classifyFailures(options.failedNow, baseline, options.mode, {
    ...(options.issueText === undefined ? {} : { issueText: options.issueText }),
    ...(touchedFiles === undefined ? {} : { touchedFiles }),
  });
  return {
    blocks: classified.blocks,
    line: `baseline ${options.mode}: ${classified.reason}`,
    params: {
      baseCommit: commit,
      regressions: capExcerpts(classified.regressions).map(toJson),
      preExisting: classified.preExisting.map(toJson),
      fixed: classified.fixed.map((name) => ({ name })),
    },
  };
}

/**
 * The files this branch changed against its base commit: committed on the branch or
 * still in the worktree (tracked), a rename as both its old and its new path.
 * Undefined when git cannot tell (the base was just resolved here, so a broken
 * repository): then only the issue's names and the mode decide.
 */
async function filesTouchedSince(worktreePath: string, commit: string): Promise<string[] | undefined> {
  const diff = await git(worktreePath, ['diff', '--name-only', '--no-renames', '--no-ext-diff', '-z', commit, '--']);
  if (diff.exitCode !== 0) return undefined;
  return diff.stdout.split('\0').filter((p) => p !== '');
}

function toJson(t: FailedTest | PreExistingFailure): JsonValue {
  return {
    name: t.name,
    ...(t.file === undefined ? {} : { file: t.file }),
    ...(t.excerpt === undefined ? {} : { excerpt: t.excerpt }),
    ...('blocks' in t && t.blocks !== undefined ? { blocks: t.blocks } : {}),
  };
}
