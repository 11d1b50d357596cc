/**
 * The bench's floor worker (worker-child with BENCH_FLOOR=<bundle path>): the floor
 * workflow and its no-op activity on the run worker's queue pair and settings
 * (`workerTuning`), so the floor differs from a run only in what a step does.
 */
import { NativeConnection, Worker } from '@temporalio/worker';
import { hostTaskQueueName, installRuntime, workerTuning } from '../../src/worker/create-run-worker.js';

export interface FloorWorker {
  run(): Promise<void>;
  shutdown(): void;
  readonly connection: NativeConnection;
}

export async function createFloorWorker(options: {
  address: string;
  namespace: string;
  taskQueue: string;
  bundlePath: string;
}): Promise<FloorWorker> {
  installRuntime();
  const connection = await NativeConnection.connect({ address: options.address });
  const activities = { floorNoop: async (step: number): Promise<number> => step };
  const common = { connection, namespace: options.namespace, activities, ...workerTuning() };
  const shared = await Worker.create({
    ...common,
    taskQueue: options.taskQueue,
    workflowBundle: { codePath: options.bundlePath },
  });
  const host = await Worker.create({ ...common, taskQueue: hostTaskQueueName(options.taskQueue) });
  return {
    connection,
    run: async () => {
      await Promise.all([shared.run(), host.run()]);
    },
    shutdown: () => {
      shared.shutdown();
      host.shutdown();
    },
  };
}
