/**
 * Ends the run workflow with a status that matches its outcome (see contracts/run-end.ts).
 *
 * A cancelled run ends CANCELLED however it was cancelled. The TS SDK ends a workflow
 * CANCELLED only when it throws CancelledFailure after Temporal asked it to cancel, and a
 * workflow cannot send that request to itself by command (the server refuses it), so a
 * run stopped by the `cancel` signal alone (the Web UI's Signal dialog, `@issue-agent
 * cancel`) asks for it through an activity.
 */
import {
  ApplicationFailure,
  CancellationScope,
  CancelledFailure,
  condition,
  log,
  upsertMemo,
  workflowInfo,
} from '@temporalio/workflow';
import { FailureType } from '../../contracts/failures.js';
import { RUN_CANCELLED_TYPE, RUN_NO_CHANGE_TYPE, RUN_RESULT_MEMO } from '../../contracts/run-end.js';
import type { RunResult } from '../../contracts/run.js';
import { runEndActivities } from './activity-proxies.js';

/** How long the run waits for its own cancel request to come back once the server accepted it. */
const OWN_CANCEL_ARRIVAL = '1 minute';

/** Watches the root scope: true once Temporal itself asked to cancel the workflow. */
export function watchCancelRequest(): () => boolean {
  let requested = false;
  CancellationScope.current().cancelRequested.catch(() => {
    requested = true;
  });
  return () => requested;
}

/** Throws: the workflow fails (failed; no-change, type NO_CHANGE) or is cancelled (cancelled), carrying the result. */
export async function endWithStatus(result: RunResult, cancelRequested: () => boolean): Promise<never> {
  if (result.outcome !== 'cancelled') {
    throw ApplicationFailure.create({
      type: result.outcome === 'no-change' ? RUN_NO_CHANGE_TYPE : (result.code ?? FailureType.Aborted),
      message: result.reason,
      nonRetryable: true,
      details: [result],
    });
  }
  upsertMemo({ [RUN_RESULT_MEMO]: result });
  if (!cancelRequested()) await requestOwnCancel(cancelRequested);
  if (cancelRequested()) throw new CancelledFailure(result.reason, [result]);
  // The server could not be asked (the activity failed for good): still never COMPLETED.
  throw ApplicationFailure.create({
    type: RUN_CANCELLED_TYPE,
    message: `cancelled: ${result.reason}`,
    nonRetryable: true,
    details: [result],
  });
}

/**
 * Only the cancel signal so far: asks the server to cancel this run and waits for the
 * request to arrive. Not itself cancellable: `issue-agent cancel`'s own request (sent right
 * after its signal) may arrive meanwhile, and that is the end it waits for anyway.
 */
async function requestOwnCancel(cancelRequested: () => boolean): Promise<void> {
  const { workflowId, runId } = workflowInfo();
  await CancellationScope.nonCancellable(async () => {
    try {
      await runEndActivities.cancelOwnRun({ workflowId, runId });
    } catch (err) {
      log.warn("could not request the run's own cancellation; it ends FAILED (RUN_CANCELLED)", {
        error: err instanceof Error ? err.message : String(err),
      });
      return;
    }
    await condition(cancelRequested, OWN_CANCEL_ARRIVAL);
  });
}
