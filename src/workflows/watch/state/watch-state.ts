/**
 * The watcher's state, a value: which runs it knows, which work it owes, where its poll
 * left off. Carried whole over continue-as-new (it is small: cursors, ids and short
 * texts). Reads only here; changes in watch-transitions.ts and watch-triggers.ts.
 *
 * Rules the reads keep:
 * - never two live runs for one issue: work for an issue whose run is live waits in
 *   `pending` (and the Workflow ID is the issue's, so Temporal refuses a duplicate too);
 * - a comment on a delivered run's pull request is about that run's issue.
 */
import type { CiWatch, PendingWork, WatchCarry, WatchCursor, WatchedRun } from '../../../contracts/watch.js';
import { NO_CI } from './ci-rounds.js';

export interface WatchState {
  readonly cursor: WatchCursor;
  readonly runs: readonly WatchedRun[];
  readonly pending: readonly PendingWork[];
  readonly polls: number;
  /** What the last poll had to say (e.g. GitHub's rate limit), shown in progress. */
  readonly note?: string;
  readonly stopping: boolean;
}

/** A fresh watcher starts reading comments from its start; a continued one from its carry. */
export function initialWatchState(carry: WatchCarry | undefined, startedAt: string): WatchState {
  return {
    cursor: carry?.cursor ?? { since: startedAt, seenCommentIds: [] },
    runs: [...(carry?.runs ?? [])],
    pending: [...(carry?.pending ?? [])],
    polls: carry?.polls ?? 0,
    stopping: false,
  };
}

export function runningRuns(state: WatchState): readonly WatchedRun[] {
  return state.runs.filter((r) => r.state === 'running');
}

export function runOf(state: WatchState, issue: number): WatchedRun | undefined {
  return state.runs.find((r) => r.issue === issue);
}

/** A number a comment was written on: an issue, or the pull request of a delivered run. */
export function issueOf(state: WatchState, number: number): number {
  return state.runs.find((r) => r.pull === number)?.issue ?? number;
}

/** Delivered pull requests whose reviews (and, when `readChecks`, checks) the poll reads. */
export function watchedPulls(
  state: WatchState,
  readChecks: boolean,
): Array<{ pull: number; issue: number; seen: readonly number[]; ci?: CiWatch }> {
  return state.runs
    .filter((r) => r.state === 'ended' && r.pull !== undefined)
    .map((r) => ({
      pull: r.pull!,
      issue: r.issue,
      seen: r.seenReviews,
      ...(readChecks ? { ci: r.ci ?? NO_CI } : {}),
    }));
}

/** Work that may start now: issues without a live run, within the concurrency limit. */
export function startableWork(state: WatchState, concurrency: number): PendingWork[] {
  const free = concurrency - runningRuns(state).length;
  if (free <= 0) return [];
  return state.pending.filter((p) => runOf(state, p.issue)?.state !== 'running').slice(0, free);
}
