/**
 * Queries and signals of the batch workflow, shared by the workflow and the client.
 * `progress` has the same name as the run's query: operators ask either workflow the same way.
 */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { BatchProgress } from '../../contracts/batch.js';

export interface CancelBatchArgs {
  readonly reason?: string;
}

export const batchProgressQuery = defineQuery<BatchProgress>('progress');
/** Stops starting issues and forwards a graceful `cancel` to the running children. */
export const cancelBatchSignal = defineSignal<[CancelBatchArgs?]>('cancel');
