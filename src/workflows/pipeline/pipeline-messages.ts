/**
 * Query and signals of the pipeline workflow, shared by the workflow and the client.
 * `progress` and `cancel` have the run's names, so operators ask any workflow the same
 * way; `pause` / `resume` hold the pipeline between cycles (a child run in flight goes on).
 */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { PipelineProgress } from '../../contracts/pipeline-run.js';

export interface PipelineSignalArgs {
  readonly reason?: string;
}

export const pipelineProgressQuery = defineQuery<PipelineProgress>('progress');
export const pausePipelineSignal = defineSignal<[PipelineSignalArgs?]>('pause');
export const resumePipelineSignal = defineSignal<[PipelineSignalArgs?]>('resume');
/** Stops after forwarding `cancel` to the child run in flight; no label change follows. */
export const cancelPipelineSignal = defineSignal<[PipelineSignalArgs?]>('cancel');
