/**
 * `npm run worker`: serves runs on the task queue until SIGINT/SIGTERM.
 * The composition root: environment → ports → activities → worker.
 */
import { ensureTemporal } from './cli/temporal/ensure-temporal.js';
import { createRunWorker, DEFAULT_TASK_QUEUE } from './worker/create-run-worker.js';
import { reportFatal } from './cli/report-error.js';

async function main(): Promise<void> {
  if (process.argv.includes('--help')) {
    process.stdout.write(
      'Usage: npm run worker\n\nRuns a worker for the run workflow on TEMPORAL_TASK_QUEUE (default issue-agent).\nUses TEMPORAL_ADDRESS, or starts/reuses the local dev server.\n',
    );
    return;
  }
  const target = await ensureTemporal();
  const taskQueue = process.env.TEMPORAL_TASK_QUEUE ?? DEFAULT_TASK_QUEUE;
  const { worker, connection } = await createRunWorker({
    address: target.address,
    namespace: target.namespace,
    taskQueue,
  });
  process.stdout.write(
    `worker polling ${taskQueue} and ${worker.hostTaskQueue} (this host's worktrees) on ${target.address} (namespace ${target.namespace}); Web UI ${target.uiUrl}\n`,
  );
  try {
    await worker.run();
  } finally {
    await connection.close();
  }
}

main().catch((err: unknown) => process.exit(reportFatal(err)));
