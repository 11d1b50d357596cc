/** A Temporal client for the CLI, on the server ensureTemporal chose. */
import { Client, Connection } from '@temporalio/client';
import { ensureTemporal, type TemporalTarget } from './ensure-temporal.js';
import { DEFAULT_TASK_QUEUE } from '../../worker/create-run-worker.js';

export interface CliTemporal {
  readonly client: Client;
  readonly target: TemporalTarget;
  readonly taskQueue: string;
  close(): Promise<void>;
}

export async function connectCli(): Promise<CliTemporal> {
  const target = await ensureTemporal();
  const connection = await Connection.connect({ address: target.address });
  return {
    client: new Client({ connection, namespace: target.namespace }),
    target,
    taskQueue: process.env.TEMPORAL_TASK_QUEUE ?? DEFAULT_TASK_QUEUE,
    close: () => connection.close(),
  };
}

/** Whether any worker polls the task queue for workflow tasks right now. */
export async function hasPollers(cli: CliTemporal): Promise<boolean> {
  const response = await cli.client.workflowService.describeTaskQueue({
    namespace: cli.target.namespace,
    taskQueue: { name: cli.taskQueue },
    taskQueueType: 1, // TASK_QUEUE_TYPE_WORKFLOW
  });
  return (response.pollers ?? []).length > 0;
}
