/**
 * The batch's named transitions, pure: each is one event of the main loop, of one
 * issue's work (work-issue.ts) or of the cancel signal. batch-session.ts applies them
 * and publishes the Web UI details where the event is one the main loop waits for.
 */
import type { BatchIssueProgress, BatchIssueRef, BatchIssueResult } from '../../../contracts/batch.js';
import type { BatchState } from './batch-state.js';

/** A change the main loop waits for happened: it looks again. */
export function versionBumped(state: BatchState): BatchState {
  return { ...state, version: state.version + 1 };
}

/** An operator's cancel: what is queued never starts, the active children are told. */
export function cancelRequested(state: BatchState, reason: string): BatchState {
  return { ...state, cancelled: reason, phase: 'cancelling' };
}

/** The issues were selected (a fresh batch): they are the queue. */
export function issuesSelected(state: BatchState, issues: readonly BatchIssueRef[]): BatchState {
  return { ...state, queue: [...issues] };
}

/** Selection is over: the batch runs, or cancels if a cancel came meanwhile. */
export function runningStarted(state: BatchState): BatchState {
  return { ...state, phase: state.cancelled === undefined ? 'running' : 'cancelling' };
}

/** History is full: no new child starts; the batch continues as new once they end. */
export function drainingStarted(state: BatchState): BatchState {
  return state.phase === 'running' ? { ...state, phase: 'draining' } : state;
}

/** The next queued issue, if any, leaves the queue. */
export function takeNextIssue(state: BatchState): { state: BatchState; next?: BatchIssueRef } {
  const [next, ...queue] = state.queue;
  return next === undefined ? { state } : { state: { ...state, queue }, next };
}

/** An issue is being started or running: its row replaces the one it had, else joins the end. */
export function issueActive(state: BatchState, progress: BatchIssueProgress): BatchState {
  const known = state.active.some((a) => a.issue === progress.issue);
  return {
    ...state,
    active: known ? state.active.map((a) => (a.issue === progress.issue ? progress : a)) : [...state.active, progress],
  };
}

/** The issue is no longer active (its row, if any, is recorded). */
export function issueReleased(state: BatchState, issue: number): BatchState {
  return { ...state, active: state.active.filter((a) => a.issue !== issue) };
}

/** A child run is in flight: counted toward the maximum concurrency seen. */
export function childStarted(state: BatchState): BatchState {
  const inFlight = state.inFlight + 1;
  return { ...state, inFlight, maxConcurrent: Math.max(state.maxConcurrent, inFlight) };
}

export function childEnded(state: BatchState): BatchState {
  return { ...state, inFlight: state.inFlight - 1 };
}

export function rowRecorded(state: BatchState, row: BatchIssueResult): BatchState {
  return { ...state, results: [...state.results, row] };
}

/** Cancelled: what is still queued never starts; each becomes a cancelled row (given in queue order). */
export function queueCancelled(state: BatchState, rows: readonly BatchIssueResult[]): BatchState {
  return { ...state, results: [...state.results, ...rows], queue: [] };
}

export function batchCompleted(state: BatchState): BatchState {
  return { ...state, phase: 'completed' };
}
