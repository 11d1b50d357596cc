/**
 * A worker process for the bench and the chaos run: the project's own worker
 * (`createRunWorker` with the real activities from `createDefaultDeps`), optionally with
 * a prebuilt workflow bundle (BENCH_BUNDLE: a code file) so restarts skip webpack.
 * Prints `READY <pid>` once the worker is created, then polls until SIGINT/SIGTERM.
 *
 * With BENCH_FLOOR (a bundle of floor-workflow.ts) it is the floor worker instead.
 *
 * Env: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_TASK_QUEUE, ANTHROPIC_BASE_URL.
 */
import { createDefaultDeps } from '../../src/activities/deps.js';
import { createRunWorker } from '../../src/worker/create-run-worker.js';
import { createFloorWorker } from './floor-worker.js';

async function main(): Promise<void> {
  const address = process.env.TEMPORAL_ADDRESS;
  const taskQueue = process.env.TEMPORAL_TASK_QUEUE;
  if (!address || !taskQueue) throw new Error('worker-child needs TEMPORAL_ADDRESS and TEMPORAL_TASK_QUEUE');
  const namespace = process.env.TEMPORAL_NAMESPACE ?? 'default';
  if (process.env.BENCH_FLOOR) {
    const floor = await createFloorWorker({ address, namespace, taskQueue, bundlePath: process.env.BENCH_FLOOR });
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => floor.shutdown());
    process.stdout.write(`READY ${process.pid}\n`);
    await floor.run().finally(() => floor.connection.close());
    return;
  }
  const bundle = process.env.BENCH_BUNDLE ? { codePath: process.env.BENCH_BUNDLE } : undefined;
  const deps = createDefaultDeps({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ANTHROPIC_BASE_URL: process.env.ANTHROPIC_BASE_URL,
  });
  const { worker, connection } = await createRunWorker({
    address,
    namespace,
    taskQueue,
    deps,
    ...(bundle ? { workflowBundle: bundle } : {}),
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => worker.shutdown());
  process.stdout.write(`READY ${process.pid}\n`);
  try {
    await worker.run();
  } finally {
    await connection.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`worker-child: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
