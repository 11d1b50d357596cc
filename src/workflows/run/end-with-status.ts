/**
 * Ends the run workflow with a status that matches its outcome (see contracts/run-end.ts).
 * Gated by patched(): replaying a history recorded before this change still completes
 * with the result as a value, as it did then.
 */
import {
  ApplicationFailure,
  CancellationScope,
  CancelledFailure,
  condition,
  isCancellation,
  patched,
  upsertMemo,
} from '@temporalio/workflow';
import { FailureType } from '../../contracts/failures.js';
import { RUN_CANCELLED_TYPE, RUN_RESULT_MEMO, RUN_STATUS_PATCH } from '../../contracts/run-end.js';
import type { RunResult } from '../../contracts/run.js';

/** How long a signal-cancelled run waits for the cancel request `issue-agent cancel` sends next. */
const CANCEL_REQUEST_GRACE = '5 seconds';

/** Watches the root scope: true once Temporal itself asked to cancel the workflow. */
export function watchCancelRequest(): () => boolean {
  let requested = false;
  CancellationScope.current().cancelRequested.catch(() => {
    requested = true;
  });
  return () => requested;
}

export function statusFollowsOutcome(result: RunResult): boolean {
  return result.outcome !== 'success' && patched(RUN_STATUS_PATCH);
}

/** Throws: the workflow fails (failed) or is cancelled (cancelled), carrying the result. */
export async function endWithStatus(result: RunResult, cancelRequested: () => boolean): Promise<never> {
  if (result.outcome !== 'cancelled') {
    throw ApplicationFailure.create({
      type: result.code ?? FailureType.Aborted,
      message: result.reason,
      nonRetryable: true,
      details: [result],
    });
  }
  upsertMemo({ [RUN_RESULT_MEMO]: result });
  if (!cancelRequested()) {
    // Only the cancel signal so far: the CLI's cancel request normally follows at once.
    try {
      await condition(cancelRequested, CANCEL_REQUEST_GRACE);
    } catch (err) {
      if (!isCancellation(err)) throw err;
    }
  }
  if (cancelRequested()) throw new CancelledFailure(result.reason, [result]);
  throw ApplicationFailure.create({
    type: RUN_CANCELLED_TYPE,
    message: `cancelled: ${result.reason}`,
    nonRetryable: true,
    details: [result],
  });
}
