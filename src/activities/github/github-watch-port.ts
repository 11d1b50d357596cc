/**
 * The GitHub port of the watcher and the progress comment: the few REST reads a poll
 * needs (conditional, so an unchanged repository costs no rate limit) and comment
 * edits, in our own small shapes. Kept apart from github-port.ts so the issue source
 * and boundary hook stay as they are. One implementation: octokit-watch-client.ts.
 */
import type { GitHubComment, GitHubIssue } from './github-port.js';

/** What the last response said about the rate limit (absent headers: unknown). */
export interface RateLimitState {
  readonly remaining?: number;
  /** Epoch milliseconds at which the window resets. */
  readonly resetAtMs?: number;
  /** retry-after, when the server sent one. */
  readonly retryAfterMs?: number;
}

/**
 * One conditional read: `notModified` when the ETag still matched (GitHub answers 304
 * and does not count it against the limit); then `items` is empty and `etag` unchanged.
 */
export interface ConditionalPage<T> {
  readonly notModified: boolean;
  readonly items: readonly T[];
  readonly etag?: string;
  readonly rateLimit: RateLimitState;
}

export interface WatchComment extends GitHubComment {
  /** The issue (or pull request) number the comment belongs to. */
  readonly issue: number;
  /** `User`, `Bot`, `Organization`… as GitHub reports the author. */
  readonly authorType: string;
  readonly updatedAt: string;
}

export const ReviewState = {
  ChangesRequested: 'CHANGES_REQUESTED',
  Approved: 'APPROVED',
  Commented: 'COMMENTED',
} as const;

export interface PullReview {
  readonly id: number;
  readonly state: string;
  readonly body: string;
  readonly author: string;
  readonly authorAssociation: string;
  readonly authorType: string;
  readonly submittedAt: string;
}

/** A check run as the watcher reads it (GitHub Actions jobs are check runs with the job's id). */
export interface CheckRun {
  readonly id: number;
  readonly name: string;
  /** `queued`, `in_progress`, `completed`. */
  readonly status: string;
  /** When completed: `success`, `failure`, `timed_out`, `cancelled`, `skipped`, `neutral`… */
  readonly conclusion?: string;
  /** What the check itself reported (title, summary, text), possibly empty. */
  readonly output: string;
}

/** The pull-request reads and writes behind "red CI on the run's PR brings it back" (issue 40). */
export interface CiChecksPort {
  /** The pull request's head commit and whether it is still open. */
  pullHead(pull: number): Promise<{ readonly sha: string; readonly open: boolean }>;
  /** The latest check run of each name on a commit. */
  checkRuns(sha: string): Promise<readonly CheckRun[]>;
  /** Asks GitHub Actions to run a job again; false when it cannot (not an Actions job, no permission). */
  rerunJob(id: number): Promise<boolean>;
  /** The job's log, when GitHub Actions has one and the token may read it. */
  jobLog(id: number): Promise<string | undefined>;
}

export interface GitHubWatchPort extends CiChecksPort {
  readonly owner: string;
  readonly repo: string;
  /** Open issues carrying `label` (pull requests left out), conditional on `etag`. */
  labelledIssues(label: string, etag?: string): Promise<ConditionalPage<GitHubIssue>>;
  /** Issue and pull-request comments of the repository updated at or after `since`, oldest first. */
  commentsSince(since: string, etag?: string): Promise<ConditionalPage<WatchComment>>;
  /** Reviews of a pull request, oldest first. */
  reviews(pull: number): Promise<readonly PullReview[]>;
  createComment(issue: number, body: string): Promise<GitHubComment>;
  updateComment(commentId: number, body: string): Promise<GitHubComment>;
  /** The first comment of the issue whose body contains `marker`, if any. */
  findComment(issue: number, marker: string): Promise<GitHubComment | undefined>;
}
