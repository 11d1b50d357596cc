/**
 * Reads a finished run's RunResult whichever way the run ended: the value of a completed
 * workflow, the first detail of a failed one (ApplicationFailure), or the `runResult`
 * memo of a cancelled one (contracts/run-end.ts). Anything else (terminated, timed out,
 * a failure without a result) is rethrown.
 */
import { resultOfFailure, type RunHandle } from '../activities/batch/result-of-failure.js';
import type { RunResult } from '../contracts/run.js';

export async function readRunResult(handle: RunHandle, pending?: Promise<unknown>): Promise<RunResult> {
  try {
    return (await (pending ?? handle.result())) as RunResult;
  } catch (err) {
    const result = await resultOfFailure(handle, err);
    if (result) return result;
    throw err;
  }
}
