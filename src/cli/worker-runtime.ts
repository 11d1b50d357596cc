/**
 * Builds a worker for the run workflow: used by `npm run worker`, by `start-run`
 * when no worker polls the task queue, by the demo and by tests.
 */
import { fileURLToPath } from 'node:url';
import { DefaultLogger, NativeConnection, Runtime, Worker, type LogLevel, type WorkerOptions } from '@temporalio/worker';
import { createActivities } from '../activities/create-activities.js';
import { createDefaultDeps, type ActivityDeps } from '../activities/deps.js';

export const DEFAULT_TASK_QUEUE = 'issue-agent';
export const WORKFLOWS_PATH = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

export interface RunWorkerOptions {
  readonly address: string;
  readonly namespace: string;
  readonly taskQueue: string;
  readonly deps?: ActivityDeps;
  /** A prebuilt bundle (tests bundle once); otherwise the workflows are bundled now. */
  readonly workflowBundle?: WorkerOptions['workflowBundle'];
  readonly identity?: string;
  /** An existing connection (tests share the test environment's); else one is opened. */
  readonly connection?: NativeConnection;
}

let runtimeInstalled = false;

/**
 * Installs the SDK runtime once with a log level (LOG_LEVEL, default WARN for the
 * CLI and demo: the worker's state changes are noise next to the run's progress).
 */
export function installRuntime(level: LogLevel = (process.env.LOG_LEVEL?.toUpperCase() as LogLevel | undefined) ?? 'WARN'): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  try {
    Runtime.install({ logger: new DefaultLogger(level) });
  } catch {
    // Already installed by the host (tests): keep theirs.
  }
}

export async function createRunWorker(options: RunWorkerOptions): Promise<{ worker: Worker; connection: NativeConnection }> {
  installRuntime();
  const connection = options.connection ?? (await NativeConnection.connect({ address: options.address }));
  const worker = await Worker.create({
    connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    activities: createActivities(options.deps ?? createDefaultDeps()),
    ...(options.workflowBundle ? { workflowBundle: options.workflowBundle } : { workflowsPath: WORKFLOWS_PATH }),
    ...(options.identity ? { identity: options.identity } : {}),
    // LLM steps are long and mostly waiting: a handful at once per worker.
    maxConcurrentActivityTaskExecutions: 20,
    shutdownGraceTime: '5 seconds',
  });
  return { worker, connection };
}
