/**
 * After a failed or cancelled run on a local checkout: the branch and worktree stay (the
 * work so far is there), what picks them up again, and the two git commands that discard
 * them. What picks a failed run up depends on why it failed: a `retry` alone would meet a
 * broken worktree or a missing key again, and a check that cannot pass by retrying needs
 * the model told what to change.
 */
import { FailureType } from '../contracts/failures.js';
import type { RunResult } from '../contracts/run.js';
import { shellQuote } from '../activities/process/shell-quote.js';
import { terminalLine } from './terminal-text.js';

/** What a failed run needs before `retry` can get further than it did. */
const RetryNeeds = {
  /** Nothing: the cause was passing (an outage, a limit) or the next attempt may differ. */
  Nothing: 'nothing',
  /** Something outside the run: the repository, the definition, a key, the environment. */
  OutsideFix: 'outside-fix',
  /** The model told what to change: the same work would fail the same way. */
  Guidance: 'guidance',
  /**
   * A new run: the environment is prepared once per worktree, so a retry keeps the one made
   * when this run began, however the repository changed since.
   */
  FreshStart: 'fresh-start',
} as const;
type RetryNeeds = (typeof RetryNeeds)[keyof typeof RetryNeeds];

function retryNeeds(code: FailureType | undefined): RetryNeeds {
  switch (code) {
    case undefined:
    case FailureType.ModelContextExceeded:
    case FailureType.ModelRateLimited:
    case FailureType.ModelUnavailable:
    case FailureType.ModelResponseMalformed:
    case FailureType.BudgetExhausted:
    case FailureType.BoundaryFailed:
    case FailureType.BoundaryPartial:
    case FailureType.GitHubRequest:
    case FailureType.GitHubRateLimited:
    case FailureType.GitHubUnavailable:
    case FailureType.Aborted:
      return RetryNeeds.Nothing;
    case FailureType.ConfigInvalid:
    case FailureType.DefinitionChanged:
    case FailureType.SchemaResolution:
    case FailureType.FailedSchemaResolution:
    case FailureType.FailedStepRouting:
    case FailureType.PromptResolution:
    case FailureType.ModelRequestInvalid:
    case FailureType.ModelAuth:
    case FailureType.ModelSpendLimit:
    case FailureType.IssueNotFound:
    case FailureType.RepoNotFound:
    case FailureType.WorktreeFailed:
    case FailureType.WorktreeOwned:
    case FailureType.CustomHandler:
    case FailureType.IssueInvalid:
    case FailureType.GitHubAuth:
      return RetryNeeds.OutsideFix;
    case FailureType.EnvironmentFailed:
      return RetryNeeds.FreshStart;
    case FailureType.StructuredOutputInvalid:
    case FailureType.ModelRefusal:
    case FailureType.ValidatorUnrecoverable:
    case FailureType.ValidationAborted:
    case FailureType.MaxIterations:
      return RetryNeeds.Guidance;
    default: {
      const unknown: never = code;
      return unknown;
    }
  }
}

function againAfterFailure(code: FailureType | undefined, retry: string, start: string): string {
  const needs = retryNeeds(code);
  switch (needs) {
    case RetryNeeds.Nothing:
      return `\`${retry}\` resumes after the last completed step`;
    case RetryNeeds.OutsideFix:
      return `fix what the reason names first (a retry as things are fails the same way), then \`${retry}\` resumes after the last completed step`;
    case RetryNeeds.FreshStart:
      return `fix what the reason names first, then discard both (below) and \`${start}\` prepares the environment anew (a retry keeps the one this run prepared)`;
    case RetryNeeds.Guidance:
      return `\`${retry} --prompt "<what to change>"\` resumes after the last completed step with your guidance for the model (the same work would fail the same check again)`;
    default: {
      const unknown: never = needs;
      return unknown;
    }
  }
}

/** `repoFlag`: the --repo the command was given, repeated in the commands it names. */
export function keptWorkHint(
  result: RunResult,
  run: { readonly issue: number; readonly repoPath: string; readonly repoFlag: string | undefined },
): string | undefined {
  const repo = run.repoFlag === undefined ? '' : ` --repo ${shellQuote(run.repoFlag)}`;
  const start = `issue-agent start-run --issue ${run.issue}${repo}`;
  if (result.branch === undefined || result.worktreePath === undefined) return nothingKept(result, start);
  let again: string;
  switch (result.outcome) {
    case 'failed':
      again = againAfterFailure(result.code, `issue-agent retry --issue ${run.issue}${repo}`, start);
      break;
    case 'cancelled':
      again = `\`${start}\` starts a new run on them`;
      break;
    case 'no-change':
      // The issue stays open for a person; the branch holds nothing of the run's.
      again = 'the branch has no change against its base';
      break;
    case 'success':
      return undefined;
    default: {
      const unknown: never = result.outcome;
      return unknown;
    }
  }
  const git = `git -C ${shellQuote(run.repoPath)}`;
  const discard = `${git} worktree remove --force ${shellQuote(result.worktreePath)} && ${git} branch -D ${shellQuote(result.branch)}`;
  return terminalLine(`kept: branch ${result.branch} and its worktree; ${again}; to discard both: ${discard}`);
}

/** A run that ended before it made its worktree (a broken checkout, a missing key): how to start it again. */
function nothingKept(result: RunResult, start: string): string | undefined {
  if (result.outcome !== 'failed') return undefined;
  const first = retryNeeds(result.code) === RetryNeeds.Nothing ? '' : 'fix what the reason names, then ';
  return terminalLine(
    `next: ${first}\`${start}\` starts the run again (it ended before making a worktree: nothing was kept)`,
  );
}
