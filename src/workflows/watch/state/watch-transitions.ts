/**
 * The watcher's named transitions, pure: a poll recorded, work owed, a run started or
 * ended, work dropped, a stop. The triggers of a poll are in watch-triggers.ts.
 *
 * Work owed to one issue is batched: two review comments in a row are one continuation
 * whose guidance holds both texts.
 */
import type { PendingWork, ReplyTarget, RunCheck, WatchCursor, WatchedRun } from '../../../contracts/watch.js';
import { runOf, type WatchState } from './watch-state.js';

/** Ended runs kept (oldest dropped first), so the carried state stays small. */
const MAX_ENDED_RUNS = 200;

/** A poll came back: where the next one starts, and its note (none clears the last). */
export function pollRecorded(state: WatchState, cursor: WatchCursor, note: string | undefined): WatchState {
  const { note: _last, ...rest } = state;
  return { ...rest, cursor, polls: state.polls + 1, ...(note === undefined ? {} : { note }) };
}

/** `stop`, or a Temporal cancel: the loop ends after this cycle. */
export function stopRequested(state: WatchState): WatchState {
  return { ...state, stopping: true };
}

/** Work owed to an issue; joins the work already owed to it (a continuation wins over a start). */
export function owe(
  state: WatchState,
  issue: number,
  kind: PendingWork['kind'],
  text: string | undefined,
  reply: ReplyTarget | undefined,
): WatchState {
  const guidance = text === undefined || text.trim() === '' ? [] : [text.trim()];
  const at = state.pending.findIndex((p) => p.issue === issue);
  const existing = state.pending[at];
  if (existing === undefined)
    return { ...state, pending: [...state.pending, { issue, kind, guidance, ...(reply ? { reply } : {}) }] };
  const joined: PendingWork = {
    issue,
    kind: existing.kind === 'continue' || kind === 'continue' ? 'continue' : 'start',
    guidance: [...existing.guidance, ...guidance],
    ...((reply ?? existing.reply) ? { reply: reply ?? existing.reply! } : {}),
  };
  return { ...state, pending: state.pending.map((p, i) => (i === at ? joined : p)) };
}

/** The issue's owed work is forgotten (a cancel command). */
export function forgetWork(state: WatchState, issue: number): WatchState {
  return { ...state, pending: state.pending.filter((p) => p.issue !== issue) };
}

/** The run of an issue, new or changed, replaces the one known; the oldest ended runs go past the cap. */
export function replaceRun(state: WatchState, run: WatchedRun): WatchState {
  let runs = [...state.runs.filter((r) => r.issue !== run.issue), run];
  const ended = runs.filter((r) => r.state === 'ended');
  if (ended.length > MAX_ENDED_RUNS) {
    const drop = new Set(ended.slice(0, ended.length - MAX_ENDED_RUNS));
    runs = runs.filter((r) => !drop.has(r));
  }
  return { ...state, runs };
}

/** Owed work started (or adopted) as `workflowId`: the issue's run keeps what the last one knew of its pull. */
export function runStarted(state: WatchState, work: PendingWork, workflowId: string): WatchState {
  const previous = runOf(state, work.issue);
  return replaceRun(forgetWork(state, work.issue), {
    issue: work.issue,
    workflowId,
    state: 'running',
    ...(previous?.pull === undefined ? {} : { pull: previous.pull, prUrl: previous.prUrl! }),
    ...(work.reply ? { reply: work.reply } : {}),
    seenReviews: previous?.seenReviews ?? [],
    ...(previous?.ci === undefined ? {} : { ci: previous.ci }),
  });
}

/** Work that could not start (e.g. the issue vanished): dropped. */
export function workDropped(state: WatchState, work: PendingWork): WatchState {
  return forgetWork(state, work.issue);
}

/** A check of a running run: hands out the run when it has just ended. */
export function runChecked(state: WatchState, check: RunCheck): { state: WatchState; ended?: WatchedRun } {
  const run = state.runs.find((r) => r.workflowId === check.workflowId && r.state === 'running');
  if (run === undefined || check.status === 'running') return { state };
  const pull = check.prUrl === undefined ? run.pull : Number(/\/pull\/(\d+)/.exec(check.prUrl)?.[1] ?? NaN);
  const ended: WatchedRun = {
    ...run,
    state: 'ended',
    outcome: check.outcome ?? 'failed',
    ...(check.prUrl === undefined ? {} : { prUrl: check.prUrl }),
    ...(pull === undefined || Number.isNaN(pull) ? {} : { pull }),
    ...(check.branch === undefined ? {} : { branch: check.branch }),
  };
  return { state: replaceRun(state, ended), ended };
}
