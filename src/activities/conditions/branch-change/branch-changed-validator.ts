/**
 * The built-in `branch-changed` condition, the no-op guard (contracts/no-change.ts): a
 * closing passes only when the issue branch has a change against its base, that is
 * commits the base lacks whose tree differs from the base's (branch-diff.ts). The
 * closure's no-change declaration turns it around: with one, the branch must have NO
 * change, and the report then carries `unchanged` for the workflow to end the run
 * without delivery. A declaration on a changed branch fails (the safer of the two: work
 * the model calls unneeded is never delivered, and the retry prompt asks it to choose).
 *
 * The base is the one test-integrity uses (base-commit.ts): the merge-base of HEAD and the
 * branch recorded at worktree creation, or a condition param `base`. Without one nothing
 * can be compared and the check fails, unrecoverable (base-commit.ts, noBaseResult).
 */
import type { ConditionResult } from '../../../contracts/activities.js';
import type { JsonValue } from '../../../contracts/json.js';
import type { NoChangeDeclaration, UnchangedBranch } from '../../../contracts/no-change.js';
import { baseCommitsOf, noBaseResult, type BaseCommits } from '../base-commit.js';
import { readBranchDiff, type BranchDiff } from './branch-diff.js';

const LISTED_FILES = 5;

export interface BranchChangeOptions {
  readonly validator: string;
  readonly worktreePath: string;
  readonly params: Readonly<Record<string, JsonValue>>;
  readonly failurePattern?: string;
  readonly declared?: NoChangeDeclaration;
  /** The closure's bases (run-validators.ts); without it, this check finds its own. */
  readonly bases?: BaseCommits;
}

export interface BranchChangeCheck {
  readonly result: ConditionResult;
  /** Set when the branch has no change and the closure declared none was needed. */
  readonly unchanged?: UnchangedBranch;
}

export async function runBranchChangedValidator(options: BranchChangeOptions): Promise<BranchChangeCheck> {
  const { validator, params } = options;
  const bases = options.bases ?? baseCommitsOf(options.worktreePath);
  const base = await bases(typeof params['base'] === 'string' ? params['base'] : undefined);
  const plain = { validator, params: { ...params }, unrecoverable: false };
  if (base === undefined) return { result: noBaseResult(validator, params) };
  const read = await readBranchDiff(options.worktreePath, base);
  if (!read.ok) return { result: { ...plain, passed: false, summary: read.error, unrecoverable: true } };
  return judgeBranchChange(read.diff, options);
}

/** The verdict on what the branch holds, with or without a declaration. PURE. */
export function judgeBranchChange(diff: BranchDiff, options: BranchChangeOptions): BranchChangeCheck {
  const { validator, declared } = options;
  const changed = diff.commits > 0 && !diff.sameTree;
  const base = diff.base.slice(0, 12);
  const params: Record<string, JsonValue> = {
    ...options.params,
    baseCommit: diff.base,
    commits: diff.commits,
    files: diff.files.slice(0, 50),
    ...(declared === undefined ? {} : { declared: declared.reason }),
  };
  const pass = (summary: string): ConditionResult => ({
    validator,
    passed: true,
    summary,
    params,
    unrecoverable: false,
  });
  const fail = (summary: string): ConditionResult => ({
    validator,
    passed: false,
    summary,
    params,
    unrecoverable: false,
    ...(options.failurePattern === undefined ? {} : { failurePattern: options.failurePattern }),
  });
  const what = changed ? `${diff.commits} commit(s) changing ${describeFiles(diff.files)}` : nothing(diff);

  if (declared === undefined)
    return changed
      ? { result: pass(`the branch has ${what} against ${base}`) }
      : { result: fail(`nothing changed: ${what} against the base ${base}`) };
  if (changed)
    return {
      result: fail(`the closure declared no change (${declared.reason}), but the branch has ${what} against ${base}`),
    };
  return {
    result: pass(`no change against ${base} (${what}); the closure declared ${declared.reason}`),
    unchanged: { declaration: declared, baseCommit: diff.base },
  };
}

function nothing(diff: BranchDiff): string {
  return diff.commits === 0
    ? 'the branch has no commit of its own'
    : `the branch's ${diff.commits} commit(s) net to no change`;
}

function describeFiles(files: readonly string[]): string {
  if (files.length === 0) return 'a submodule pointer';
  const listed = files.slice(0, LISTED_FILES).join(', ');
  return `${files.length} file(s): ${listed}${files.length > LISTED_FILES ? ', …' : ''}`;
}
