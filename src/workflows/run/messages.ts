/**
 * Signals, queries and updates of the run workflow, defined once and imported by both
 * the workflow and the client. Names are the public contract: operators send them
 * from the Web UI or `temporal workflow signal --name retry|cancel|answer`.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { RunProgress } from '../../contracts/run.js';
import type { RunBudget } from '../../contracts/usage.js';
import type { HumanAnswer } from '../../contracts/human-loop.js';

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
/** A person's answer to the question the run asked (`issue-agent reply`, the watcher, the Web UI). */
export const answerSignal = defineSignal<[HumanAnswer]>('answer');
export const answerUpdate = defineUpdate<string, [HumanAnswer]>('answer');
/** Adds to the run's limits (each amount to the current limit, or to what was spent when none): `/extend 5`. */
export const extendBudgetSignal = defineSignal<[RunBudget]>('extendBudget');
