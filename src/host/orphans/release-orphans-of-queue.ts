/**
 * A worker that starts after a crash on this host releases the steps the dead process
 * had started (orphaned-activities.ts) in every running workflow of its task queue, so
 * they run again now instead of after their heartbeat timeout (60 s). `start-run` does
 * the same for its one run when it attaches or takes over.
 *
 * Bounded (the first MAX_RUNS running workflows of the queue) and best effort: a failed
 * look leaves the steps to their heartbeat timeout, as before.
 */
import { Client, Connection } from '@temporalio/client';
import type { TemporalTarget } from '../temporal/ensure-temporal.js';
import { defaultOrphanPorts, releaseOrphanedActivities } from './orphaned-activities.js';

const MAX_RUNS = 200;

/** One line per released step: `<workflowId>: the worker that ran <activity> (pid N) is gone …`. */
export async function releaseOrphansOfQueue(
  target: Pick<TemporalTarget, 'address' | 'namespace'>,
  taskQueue: string,
): Promise<string[]> {
  const connection = await Connection.connect({ address: target.address });
  try {
    const client = new Client({ connection, namespace: target.namespace });
    const ports = defaultOrphanPorts((id, error) => client.activity.fail(id, error));
    const lines: string[] = [];
    let seen = 0;
    const query = `TaskQueue = '${taskQueue.replace(/'/g, "\\'")}' AND ExecutionStatus = 'Running'`;
    for await (const execution of client.workflow.list({ query })) {
      if (++seen > MAX_RUNS) break;
      const run = await client.workflow.getHandle(execution.workflowId, execution.runId).describe();
      for (const released of await releaseOrphanedActivities(run, ports))
        lines.push(
          `${execution.workflowId}: the worker that ran ${released} is gone: that step is retried now, not after its heartbeat timeout`,
        );
    }
    return lines;
  } finally {
    await connection.close();
  }
}
