/**
 * The RunResult a failed or cancelled run carries (contracts/run-end.ts): the first detail
 * of its ApplicationFailure, or the `runResult` memo of a cancelled one. Used by the batch's
 * awaitRun activity and, through host/run-result.ts, by every client that reads a result.
 */
import { WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { RUN_RESULT_MEMO, runResultOf } from '../../contracts/run-end.js';
import type { RunResult } from '../../contracts/run.js';

export type RunHandle = Pick<WorkflowHandle, 'result' | 'describe'>;

/** The RunResult a WorkflowFailedError carries, without another call when it is in the details. */
export async function resultOfFailure(handle: RunHandle, err: unknown): Promise<RunResult | undefined> {
  if (!(err instanceof WorkflowFailedError)) return undefined;
  const cause = err.cause;
  if (cause instanceof ApplicationFailure || cause instanceof CancelledFailure) {
    const fromDetails = runResultOf(cause.details ?? []);
    if (fromDetails) return fromDetails;
  }
  if (cause instanceof CancelledFailure) {
    const memo = (await handle.describe()).memo;
    return runResultOf(memo?.[RUN_RESULT_MEMO]);
  }
  return undefined;
}
