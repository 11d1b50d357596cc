/**
 * Builds a worker for the run workflow: used by `npm run worker`, by `start-run`
 * when no worker polls the task queue, by the demo and by tests.
 */
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { DefaultLogger, NativeConnection, Runtime, Worker, type LogLevel, type WorkerOptions } from '@temporalio/worker';
import { createActivities } from '../activities/create-activities.js';
import { createBatchActivities } from '../activities/batch-activities.js';
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

/**
 * The queue for activities bound to this host's disk (worktrees). Stable across worker
 * restarts on the same host, so a run resumes where its worktree is.
 */
export function hostTaskQueueName(taskQueue: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.TEMPORAL_HOST_TASK_QUEUE ?? `${taskQueue}@${hostname()}`;
}

/** A worker pair: the shared queue (workflows, any activity) and this host's queue. */
export interface RunWorker {
  readonly hostTaskQueue: string;
  run(): Promise<void>;
  runUntil<R>(until: Promise<R> | (() => Promise<R>)): Promise<R>;
  shutdown(): void;
}

export async function createRunWorker(options: RunWorkerOptions): Promise<{ worker: RunWorker; connection: NativeConnection }> {
  installRuntime();
  const connection = options.connection ?? (await NativeConnection.connect({ address: options.address }));
  const hostTaskQueue = hostTaskQueueName(options.taskQueue);
  const deps = { ...(options.deps ?? createDefaultDeps()), hostTaskQueue };
  const activities = { ...createActivities(deps), ...createBatchActivities(deps) };
  const common = {
    connection,
    namespace: options.namespace,
    activities,
    ...(options.identity ? { identity: options.identity } : {}),
    // LLM steps are long and mostly waiting: a handful at once per worker.
    maxConcurrentActivityTaskExecutions: 20,
    shutdownGraceTime: '5 seconds',
    // Cancellation reaches an activity only with a heartbeat that gets to the server;
    // the default throttle (0.8 × heartbeat timeout) would delay a cancel by ~48 s.
    maxHeartbeatThrottleInterval: '2 seconds',
  } as const;
  const shared = await Worker.create({
    ...common,
    taskQueue: options.taskQueue,
    ...(options.workflowBundle ? { workflowBundle: options.workflowBundle } : { workflowsPath: WORKFLOWS_PATH }),
  });
  const host = await Worker.create({ ...common, taskQueue: hostTaskQueue });
  const worker: RunWorker = {
    hostTaskQueue,
    run: async () => {
      await Promise.all([shared.run(), host.run()]);
    },
    runUntil: (until) => shared.runUntil(() => host.runUntil(until)),
    shutdown: () => {
      shared.shutdown();
      host.shutdown();
    },
  };
  return { worker, connection };
}
