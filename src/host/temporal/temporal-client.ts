/**
 * A Temporal client for the CLI, on the server ensureTemporal chose, and whether a
 * worker really serves its task queue: a poller entry outlives a dead worker by
 * minutes, so only a recent poll counts, and a run whose workflow task nobody picks
 * up within a few seconds is served in-process anyway.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { ensureTemporal, type TemporalTarget } from './ensure-temporal.js';
import { DEFAULT_TASK_QUEUE } from './task-queue.js';
import { isGoneLocalWorker } from './local-worker-identity.js';
import { searchAttributesReady } from './search-attributes-check.js';

export interface CliTemporal {
  readonly client: Client;
  readonly target: TemporalTarget;
  readonly taskQueue: string;
  close(): Promise<void>;
}

/** Connects, and makes sure the namespace has the search attributes runs set (search-attributes-check.ts). */
export async function connectCli(): Promise<CliTemporal> {
  const target = await ensureTemporal();
  const connection = await Connection.connect({ address: target.address });
  try {
    await searchAttributesReady(connection.operatorService, target);
  } catch (err) {
    await connection.close();
    throw err;
  }
  return {
    client: new Client({ connection, namespace: target.namespace }),
    target,
    taskQueue: process.env.TEMPORAL_TASK_QUEUE ?? DEFAULT_TASK_QUEUE,
    close: () => connection.close(),
  };
}

/** A live worker re-polls at least once per long poll (about a minute on the server). */
export const LIVE_POLL_WINDOW_MS = 70_000;

/** Workers that polled the task queue for workflow tasks within the long-poll window (and, on this host, still exist). */
export async function livePollers(cli: CliTemporal, now = Date.now()): Promise<number> {
  const response = await cli.client.workflowService.describeTaskQueue({
    namespace: cli.target.namespace,
    taskQueue: { name: cli.taskQueue },
    taskQueueType: 1, // TASK_QUEUE_TYPE_WORKFLOW
  });
  return (response.pollers ?? []).filter((p) => {
    const seconds = Number(p.lastAccessTime?.seconds ?? 0);
    // A poller of this host whose process is gone is stale at once, not after the window.
    return now - seconds * 1000 <= LIVE_POLL_WINDOW_MS && !isGoneLocalWorker(p.identity);
  }).length;
}

/** Whether any worker polled the task queue recently (start-batch). */
export async function hasPollers(cli: CliTemporal): Promise<boolean> {
  return (await livePollers(cli)) > 0;
}

const WORKFLOW_TASK_STARTED = 2; // PENDING_WORKFLOW_TASK_STATE_STARTED

/**
 * Whether a worker takes the run's pending workflow task within `timeoutMs`: true when
 * none is pending or it started; false when it stays scheduled (nobody really polls).
 */
export async function workflowTaskTaken(cli: CliTemporal, workflowId: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { raw, status } = await cli.client.workflow.getHandle(workflowId).describe();
    const pending = raw.pendingWorkflowTask;
    if (status.name !== 'RUNNING' || !pending || pending.state === WORKFLOW_TASK_STARTED) return true;
    if (Date.now() >= deadline) return false;
    await sleep(250);
  }
}

/**
 * The identity of the worker that started the run's latest workflow task (`<pid>@<host>`
 * unless the worker set another), from its history; undefined when none did or the
 * history cannot be read. Says who serves a run this command did not serve itself.
 */
export async function workflowTaskTaker(cli: CliTemporal, workflowId: string): Promise<string | undefined> {
  try {
    const history = await cli.client.workflow.getHandle(workflowId).fetchHistory();
    let identity: string | undefined;
    for (const event of history.events ?? []) {
      const started = event.workflowTaskStartedEventAttributes;
      if (started?.identity) identity = started.identity;
    }
    return identity;
  } catch {
    return undefined;
  }
}
