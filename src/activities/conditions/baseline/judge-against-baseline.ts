/**
 * A failed test validator with `baseline` set, judged against the base commit: which
 * of its failing tests are regressions, which failed there already (each blocking or
 * not, and why), which the branch fixed, and whether it still blocks
 * (classify-failures, with the issue text and the files the branch changed), and
 * whether the closure classified each non-blocking one as unrelated (match-claims; one
 * it did not classify blocks, unless the closing declared no change, with the
 * `pre-existing-unclassified` pattern when nothing else does). Undefined when no judgement is possible (no base recorded, the base could
 * not be run): the failure then stands as it is. Whether the tests still ran as on the
 * base, and which it fixed, is tests-ran.ts's.
 */
import type { BaselineMode } from '../../../contracts/definition.js';
import type { JsonValue } from '../../../contracts/json.js';
import { UNCLASSIFIED_PATTERN, type PreExistingClaim } from '../../../contracts/pre-existing-claims.js';
import type { CommandRunner } from '../../process/command-runner.js';
import { baseCommitsOf, filesTouchedSince, type BaseCommits } from '../base-commit.js';
import { capExcerpts, type FailedTest } from '../../../definition/ecosystems/test-runners/failed-test.js';
import { baselineFailures } from './baseline-run.js';
import { classifyFailures, FIXED_NOTE } from './classify-failures.js';
import { matchClaims, type AccountedFailure } from './match-claims.js';

export interface BaselineJudgement {
  readonly blocks: boolean;
  /** One line for the summary. */
  readonly line: string;
  readonly params: Record<string, JsonValue>;
  /** Set when only unclassified pre-existing failures block: the retry prompt asks for their classification. */
  readonly failurePattern?: string;
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
  /**
   * The closure's classification of pre-existing failures as unrelated; undefined when
   * none is required (a closing that declares no change delivers nothing).
   */
  readonly claims?: readonly PreExistingClaim[];
  /** The closure's bases (run-validators.ts); without it, this judgement finds its own. */
  readonly bases?: BaseCommits;
}): Promise<BaselineJudgement | undefined> {
  const commit = await (options.bases ?? baseCommitsOf(options.worktreePath))();
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
  const claims = matchClaims(classified.preExisting, options.claims ?? []);
  const unclassified = options.claims === undefined ? [] : claims.unclassified.map((t) => t.name);
  const onlyUnclassified = !classified.blocks && unclassified.length > 0;
  // Said of the failures on the base, before the tests fixed (which need no classifying).
  const accounted =
    !classified.blocks && options.claims !== undefined && classified.preExisting.length > 0
      ? ', each classified unrelated by the closure'
      : '';
  const [verdict = '', ...fixedNote] = classified.reason.split(FIXED_NOTE);
  const head = `against the base (baseline: ${options.mode})`;
  return {
    blocks: classified.blocks || onlyUnclassified,
    line: onlyUnclassified
      ? `${head}: failing on base ${commit.slice(0, 12)} too and not classified by the closure as unrelated: ${unclassified.join(', ')}`
      : `${head}: ${[`${verdict}${accounted}`, ...fixedNote].join(FIXED_NOTE)}`,
    params: {
      baseCommit: commit,
      regressions: capExcerpts(classified.regressions).map(toJson),
      preExisting: claims.preExisting.map(toJson),
      fixed: classified.fixed.map((name) => ({ name })),
      ...(unclassified.length === 0 ? {} : { unclassified: claims.unclassified.map(toJson) }),
    },
    ...(onlyUnclassified ? { failurePattern: UNCLASSIFIED_PATTERN } : {}),
  };
}

function toJson(t: FailedTest | AccountedFailure): JsonValue {
  return {
    name: t.name,
    ...(t.file === undefined ? {} : { file: t.file }),
    ...(t.excerpt === undefined ? {} : { excerpt: t.excerpt }),
    ...('blocks' in t && t.blocks !== undefined ? { blocks: t.blocks } : {}),
    ...('unrelated' in t && t.unrelated !== undefined ? { unrelated: t.unrelated } : {}),
  };
}
