/**
 * The repository watcher (`issue-agent watch`): its input and carried state, the
 * triggers a poll finds, and the activities it calls. Shared by the watch workflow,
 * its activities and the CLI. The progress comment's shapes: contracts/progress-comment.ts.
 */
import type { DeliveryMode } from './delivery.js';
import type { IssueSourceKind, RunInput, RunOutcome } from './run.js';
import type { RelabelIssueInput } from './batch.js';

export const DEFAULT_WATCH_LABEL = 'agent';
export const DEFAULT_MENTION = '@issue-agent';
export const DEFAULT_POLL_INTERVAL_MS = 60_000;
export const MAX_WATCH_CONCURRENCY = 50;

/** The label a picked-up issue gets instead of the trigger label. */
export const workingLabelOf = (label: string): string => `${label}:working`;

export const CommentCommand = { Cancel: 'cancel', Retry: 'retry', Status: 'status' } as const;
export type CommentCommand = (typeof CommentCommand)[keyof typeof CommentCommand];

/** Where the outcome of what a comment asked for is answered. */
export interface ReplyTarget {
  /** Issue or pull-request number the comment was written on. */
  readonly issue: number;
  readonly commentId: number;
  readonly author: string;
}

export type WatchTrigger =
  /** An open issue carrying the trigger label. */
  | { readonly kind: 'label'; readonly issue: number; readonly title: string }
  /** An allowed author mentioned the trigger on an issue or pull request, asking for work. */
  | {
      readonly kind: 'mention';
      readonly issue: number;
      readonly text: string;
      readonly reply: ReplyTarget;
      /** Written on a pull request: only a run the watcher delivered there is continued. */
      readonly onPull: boolean;
    }
  /** `@issue-agent cancel|retry <guidance>|status` from an allowed author. */
  | {
      readonly kind: 'command';
      readonly issue: number;
      readonly command: CommentCommand;
      readonly text: string;
      readonly reply: ReplyTarget;
    }
  /** `/extend 5` from an allowed author: add $5 to the cost limit of the issue's live run. */
  | { readonly kind: 'extend'; readonly issue: number; readonly usd: number; readonly reply: ReplyTarget }
  /**
   * Any other comment on an issue from an allowed author: the answer, when that issue's run
   * waits for one (the model asked a question); otherwise nothing.
   */
  | { readonly kind: 'comment'; readonly issue: number; readonly text: string; readonly reply: ReplyTarget }
  /** A review with "changes requested" on a pull request the watcher delivered. */
  | { readonly kind: 'review'; readonly issue: number; readonly reviewId: number; readonly text: string }
  /** A failed check on a delivered pull request was run again (a flaky failure passes then). */
  | { readonly kind: 'check-rerun'; readonly issue: number; readonly checkRunId: number; readonly key: string }
  /** A check failed on a delivered pull request's head (again, or it could not be run again). */
  | {
      readonly kind: 'check-failed';
      readonly issue: number;
      readonly pull: number;
      readonly checkRunId: number;
      readonly name: string;
      readonly sha: string;
      /** The continuation's guidance: the check, and a bounded excerpt of its log. */
      readonly text: string;
    }
  /** A delivered pull request was merged or closed: its checks are no longer read. */
  | { readonly kind: 'pull-closed'; readonly issue: number };

/** Default rounds of "CI is red on the run's PR: work it" per pull request. */
export const DEFAULT_CI_ROUNDS = 1;

/** Where the watcher stands with a delivered pull request's checks. */
export interface CiWatch {
  /** Continuations started for failed checks. */
  readonly rounds: number;
  /** Check-run ids already acted on. */
  readonly handled: readonly number[];
  /** `<check name>@<sha>` run again once already: a second failure is real. */
  readonly reran: readonly string[];
  /** The pull request closed, or the cap was reached: its checks are no longer read. */
  readonly stopped?: boolean;
}

/** Where the comment poll stands: carried from poll to poll (and over continue-as-new). */
export interface WatchCursor {
  readonly issuesEtag?: string;
  readonly commentsEtag?: string;
  /** ISO time: comments updated at or after it are read. */
  readonly since: string;
  /** Ids already handled at `since` (the bound is inclusive). */
  readonly seenCommentIds: readonly number[];
}

export interface PollWatchInput {
  readonly repoPath: string;
  readonly issueSource: IssueSourceKind;
  readonly label: string;
  readonly mention: string;
  readonly cursor: WatchCursor;
  /** Pull requests of delivered runs whose reviews are read, with the review ids already handled. */
  readonly pulls: ReadonlyArray<{
    readonly pull: number;
    readonly issue: number;
    readonly seen: readonly number[];
    /** Present when the pull request's checks are read (absent in polls scheduled before that). */
    readonly ci?: CiWatch;
  }>;
}

export interface PollWatchOutput {
  readonly cursor: WatchCursor;
  readonly triggers: readonly WatchTrigger[];
  /** Wait at least this long before the next poll (rate limit); absent: the poll interval. */
  readonly waitMs?: number;
  /** Why the poll waits (shown in the watcher's progress). */
  readonly note?: string;
}

export const RunCheckStatus = {
  Running: 'running',
  Closed: 'closed',
  Missing: 'missing',
} as const;
export type RunCheckStatus = (typeof RunCheckStatus)[keyof typeof RunCheckStatus];

export interface RunCheck {
  readonly workflowId: string;
  readonly status: RunCheckStatus;
  readonly outcome?: RunOutcome;
  readonly reason?: string;
  readonly prUrl?: string;
  readonly branch?: string;
}

export interface ReplyInput {
  readonly repoPath: string;
  readonly issueSource: IssueSourceKind;
  /** Issue or pull-request number to answer on. */
  readonly issue: number;
  /** Who asked (the reply starts with @author). */
  readonly author: string;
  readonly text: string;
  /** Makes the reply idempotent (a retried activity does not post twice). */
  readonly key: string;
}

export interface StatusReplyInput extends Omit<ReplyInput, 'text'> {
  readonly workflowId: string;
}

/** Marks a picked-up issue: the same label change a batch makes (add, then remove). */
export type PickUpInput = RelabelIssueInput;

export interface WatchActivities {
  pollWatch(input: PollWatchInput): Promise<PollWatchOutput>;
  checkRuns(input: { readonly workflowIds: readonly string[] }): Promise<readonly RunCheck[]>;
  pickUpIssue(input: PickUpInput): Promise<readonly string[]>;
  postWatchReply(input: ReplyInput): Promise<void>;
  replyRunStatus(input: StatusReplyInput): Promise<void>;
}

export const WatchedRunState = { Running: 'running', Ended: 'ended' } as const;
export type WatchedRunState = (typeof WatchedRunState)[keyof typeof WatchedRunState];

/** A run the watcher started or found, kept until it ended (and, if delivered, for its reviews). */
export interface WatchedRun {
  readonly issue: number;
  readonly workflowId: string;
  readonly state: WatchedRunState;
  readonly outcome?: RunOutcome;
  readonly prUrl?: string;
  readonly pull?: number;
  readonly branch?: string;
  /** The comment that asked for this run (continuations, retries): answered at the end. */
  readonly reply?: ReplyTarget;
  readonly seenReviews: readonly number[];
  /** The delivered pull request's checks (red CI brings the run back). */
  readonly ci?: CiWatch;
}

/** Work the watcher owes an issue but has not started (concurrency, or a live run first). */
export interface PendingWork {
  readonly issue: number;
  readonly kind: 'start' | 'continue';
  /** Review texts and comments, batched: all of them guide one continuation. */
  readonly guidance: readonly string[];
  readonly reply?: ReplyTarget;
}

export interface WatchCarry {
  readonly cursor: WatchCursor;
  readonly runs: readonly WatchedRun[];
  readonly pending: readonly PendingWork[];
  readonly polls: number;
}

export interface WatchInput {
  readonly agentName: string;
  readonly agentDir: string;
  readonly repoPath: string;
  readonly issueSource: IssueSourceKind;
  /** The repository identity: runs are `<repoId>/<agent>/issue-<n>` like start-run's. */
  readonly repoId: string;
  readonly artifactsDir: string;
  readonly delivery?: DeliveryMode;
  readonly overrides?: RunInput['overrides'];
  readonly repoInstructions?: string;
  readonly label: string;
  readonly mention: string;
  readonly concurrency: number;
  readonly pollIntervalMs: number;
  /** Web UI address of a workflow without its id (`…/workflows/`): the progress comment's link. */
  readonly uiWorkflowsUrl?: string;
  /** Continue as new after this many polls (default 200). */
  readonly pollsPerRun?: number;
  readonly maxIterations?: number;
  readonly tuning?: RunInput['tuning'];
  /** What `.agent/config.json` sets for every run, as start-run passes it: the budget, the answer timeout, setup. */
  readonly budget?: RunInput['budget'];
  readonly answerTimeoutMs?: number;
  readonly setup?: RunInput['setup'];
  readonly planApproval?: RunInput['planApproval'];
  /** Rounds of "a check failed on the delivered PR: work it" per pull request (default DEFAULT_CI_ROUNDS; 0: never). */
  readonly ciRounds?: number;
  readonly carry?: WatchCarry;
}

export interface WatchProgress {
  readonly workflowId: string;
  readonly polls: number;
  readonly running: readonly number[];
  readonly pending: readonly number[];
  readonly runs: readonly WatchedRun[];
  readonly note?: string;
  readonly stopping: boolean;
}
