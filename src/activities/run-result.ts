/**
 * Reads a finished run's RunResult whichever way the run ended: the value of a completed
 * workflow, the first detail of a failed one (ApplicationFailure), or the `runResult`
 * memo of a cancelled one (contracts/run-end.ts). Anything else (terminated, timed out,
 * a failure without a result) is rethrown.
 */
import { WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { RUN_RESULT_MEMO, runResultOf } from '../contracts/run-end.js';
import type { RunResult } from '../contracts/run.js';

type RunHandle = Pick<WorkflowHandle, 'result' | 'describe'>;

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

export async function readRunResult(handle: RunHandle, pending?: Promise<unknown>): Promise<RunResult> {
  try {
    return (await (pending ?? handle.result())) as RunResult;
  } catch (err) {
    const result = await resultOfFailure(handle, err);
    if (result) return result;
    throw err;
  }
}
