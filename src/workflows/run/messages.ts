/**
 * Signals, queries and updates of the run workflow, defined once and imported by both
 * the workflow and the client. Names are the public contract: operators send them
 * from the Web UI or `temporal workflow signal --name retry|cancel`.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { RunProgress } from '../../contracts/run.js';
import type { RunBudget } from '../../contracts/usage.js';

export interface RetrySignalArgs {
  /** Becomes the next iteration's prompt when given. */
  readonly prompt?: string;
}

export interface CancelSignalArgs {
  readonly reason?: string;
}

export const progressQuery = defineQuery<RunProgress>('progress');
export const retrySignal = defineSignal<[RetrySignalArgs?]>('retry');
export const cancelSignal = defineSignal<[CancelSignalArgs?]>('cancel');
export const raiseBudgetSignal = defineSignal<[RunBudget]>('raiseBudget');
export const raiseBudgetUpdate = defineUpdate<RunBudget, [RunBudget]>('raiseBudget');
