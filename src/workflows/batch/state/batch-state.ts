/**
 * The batch's state, a value: its phase, the queue, the children being started or
 * running, the result rows, the concurrency seen, the cancel reason. Changed only by the
 * named transitions of batch-transitions.ts; batch-session.ts owns it.
 */
import type {
  BatchCarry,
  BatchIssueProgress,
  BatchIssueRef,
  BatchIssueResult,
  BatchPhase,
} from '../../../contracts/batch.js';

export interface BatchState {
  readonly phase: BatchPhase;
  readonly queue: readonly BatchIssueRef[];
  readonly results: readonly BatchIssueResult[];
  /** The issues being started or running, in the order they became active. */
  readonly active: readonly BatchIssueProgress[];
  readonly maxConcurrent: number;
  /** Child runs in flight now (maxConcurrent is the most seen). */
  readonly inFlight: number;
  readonly cancelled?: string;
  readonly generation: number;
  /** Bumped on every change the main loop waits for (it waits for `version` to move). */
  readonly version: number;
}

/** A fresh batch selects first; a continued one runs on with what the last run carried. */
export function initialBatchState(carry: BatchCarry | undefined): BatchState {
  return {
    phase: carry ? 'running' : 'selecting',
    queue: carry ? [...carry.queue] : [],
    results: carry ? [...carry.results] : [],
    active: [],
    maxConcurrent: carry?.maxConcurrent ?? 0,
    inFlight: 0,
    ...(carry?.cancelled === undefined ? {} : { cancelled: carry.cancelled }),
    generation: carry?.generation ?? 0,
    version: 0,
  };
}
