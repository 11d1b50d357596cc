/**
 * Waits for a workflow's result, following its progress meanwhile; when no worker polls
 * the task queue, serves it with an in-process worker until the result arrives (so
 * `start-run` and `start-batch` work on embedded defaults without `npm run worker`).
 */
import type { CliTemporal } from './temporal/temporal-client.js';
import { createRunWorker } from '../worker/create-run-worker.js';

export interface ServeOptions {
  readonly embedded: boolean;
  /** Prints progress until `done()` says the result arrived. */
  readonly follow?: (done: () => boolean) => Promise<void>;
}

export async function serveUntilDone<R>(cli: CliTemporal, result: Promise<R>, options: ServeOptions): Promise<R> {
  let finished = false;
  const tracked = result.finally(() => (finished = true));
  const watcher = options.follow ? options.follow(() => finished) : Promise.resolve();
  let value: R;
  if (options.embedded) {
    const { worker, connection } = await createRunWorker({
      address: cli.target.address,
      namespace: cli.target.namespace,
      taskQueue: cli.taskQueue,
    });
    try {
      value = await worker.runUntil(tracked);
    } finally {
      await connection.close();
    }
  } else {
    value = await tracked;
  }
  await watcher;
  return value;
}
