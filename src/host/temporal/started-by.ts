/**
 * Whether a run a start request returned is one this client started. With the conflict
 * policy USE_EXISTING, two `start-run`s racing for the same issue both get a handle to the
 * same run, and the SDK does not pass on the server's `started` flag; the run's first
 * event names the identity of the client whose request started it (`<pid>@<host>` by
 * default, so two processes never share one).
 */
import type { Client } from '@temporalio/client';

export async function startedByThisClient(client: Client, workflowId: string, runId: string): Promise<boolean> {
  const { history } = await client.workflowService.getWorkflowExecutionHistory({
    namespace: client.options.namespace,
    execution: { workflowId, runId },
    maximumPageSize: 1,
  });
  const identity = history?.events?.[0]?.workflowExecutionStartedEventAttributes?.identity;
  return identity === client.options.identity;
}
