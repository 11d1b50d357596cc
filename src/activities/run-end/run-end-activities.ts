/**
 * createRunEndActivities: what a run needs at its end from outside the workflow. A
 * workflow cannot cancel itself by command (the server refuses a cancel request aimed
 * at the requesting run), yet only a run with a cancel request can end CANCELLED; so a
 * run stopped by the `cancel` signal alone asks the server through the worker's client,
 * and the Web UI's Signal dialog, `@issue-agent cancel` and `issue-agent cancel` all end
 * the run the same way as the UI's Cancel button (contracts/run-end.ts).
 */
import { Context } from '@temporalio/activity';
import type { CancelOwnRunInput, RunEndActivities } from '../../contracts/run-end.js';
import { atEdge } from '../edge/to-failure.js';

/** Requests cancellation of one run; the default goes through the worker's own client. */
export type RequestCancel = (input: CancelOwnRunInput) => Promise<void>;

const throughWorkerClient: RequestCancel = async ({ workflowId, runId }) => {
  // Idempotent on the server: a second request for a run already asked to cancel is a no-op.
  await Context.current().client.workflow.getHandle(workflowId, runId).cancel();
};

export function createRunEndActivities(requestCancel: RequestCancel = throughWorkerClient): RunEndActivities {
  return {
    cancelOwnRun: atEdge(async (input) => requestCancel(input)),
  };
}
