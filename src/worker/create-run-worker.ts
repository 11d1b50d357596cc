/**
 * Builds a worker for the run workflow: used by `npm run worker`, by `start-run`
 * when no worker polls the task queue, by the demo and by tests.
 */
import {
  DefaultLogger,
  makeTelemetryFilterString,
  NativeConnection,
  Runtime,
  Worker,
  type LogEntry,
  type LogLevel,
  type WorkerInterceptors,
  type WorkerOptions,
} from '@temporalio/worker';
import { AgentError } from '../contracts/errors.js';
import { telemetryOptionsFromEnv } from './telemetry.js';
import { formatLogLine, isNoise, LogFormat, logFormatOf } from './log-line.js';
import { tracingPluginFromEnv } from './tracing.js';
import type { OpenTelemetryPlugin } from '@temporalio/interceptors-opentelemetry';
import type { ActivityDeps } from '../activities/deps.js';
import type { WorkerActivities } from '../contracts/worker-activities.js';
import type * as WorkerActivitiesModule from '../activities/all-activities.js';
import { lazyActivities } from './lazy-activities.js';
import { workflowSource } from './workflow-source.js';
import { workerPair, type WorkerPair } from './worker-pair.js';
import { redactorForEnv, type Redact } from '../activities/edge/secret-redactor.js';
import { searchAttributesReady } from '../host/temporal/search-attributes-check.js';
import { badSearchAttributesGuard, guardPortsOf } from './bad-search-attributes-guard.js';
import { hostIdFrom } from '../host/host-identity.js';
import { resetStickyQueueOf, stickyResetInterceptor } from './sticky-reset.js';

export { WORKFLOWS_PATH } from './workflow-source.js';

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
  /** Tracing plugin (tests pass one with an in-memory exporter); default from OTEL_TRACES_EXPORTER. */
  readonly tracing?: OpenTelemetryPlugin;
  /**
   * The process reports each run's end itself (start-run serving its own run): the SDK's
   * `Workflow failed` warning, with the error's stack, would repeat that report after it.
   */
  readonly runEndsReportedByCaller?: boolean;
}

let runtimeInstalled = false;

/**
 * Installs the SDK runtime once with a log level (LOG_LEVEL, default WARN for the
 * CLI and demo: the worker's state changes are noise next to the run's progress).
 */
export function installRuntime(
  level: LogLevel = (process.env.LOG_LEVEL?.toUpperCase() as LogLevel | undefined) ?? 'WARN',
): void {
  if (runtimeInstalled) return;
  // Computed first: a malformed metrics setting is reported, not swallowed below.
  const telemetryOptions = telemetryOptionsFromEnv(process.env);
  runtimeInstalled = true;
  try {
    // The core's log lines (a rejected workflow task among them) are forwarded to our
    // logger, so they are redacted like ours and the BadSearchAttributes guard sees them.
    const logging = { forward: {}, filter: makeTelemetryFilterString({ core: level, other: level }) };
    Runtime.install({
      logger: new DefaultLogger(level, printLogEntry),
      telemetryOptions: { ...telemetryOptions, logging },
    });
  } catch {
    // Already installed by the host (tests): keep theirs.
  }
}

let runEndsReportedByCaller = false;

let logRedactor: Redact | undefined;

/** Who else reads the runtime's log lines (the BadSearchAttributes guard of each worker). */
const logListeners = new Set<(text: string) => void>();

function printLogEntry(entry: LogEntry): void {
  if (isNoise(entry.message, { runEndsReportedByCaller }, entry.meta)) return;
  const time = new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString();
  // Log lines are persisted by whoever runs the worker: no secret of the environment may appear.
  const redact = (logRedactor ??= redactorForEnv(process.env));
  const line = { time, level: entry.level, message: entry.message, ...(entry.meta ? { meta: entry.meta } : {}) };
  // The listeners (the BadSearchAttributes guard) read every field; stderr gets the person's line.
  const full = redact(formatLogLine(line, LogFormat.Json));
  const text = logFormatOf(process.env) === LogFormat.Json ? full : redact(formatLogLine(line, LogFormat.Text));
  for (const listener of logListeners) listener(full);
  process.stderr.write(text + '\n');
}

/**
 * Activity slots per worker (WORKER_MAX_ACTIVITIES, default 50): model steps are long and
 * mostly waiting, so with 20 slots 50 concurrent runs queued for a slot and took ~3 model
 * latencies per step (npm run bench, concurrency phase). Not the SDK's 100: a step's tools
 * and the validators run the repository's commands (test suites), which do not wait cheaply.
 */
function maxActivities(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.WORKER_MAX_ACTIVITIES;
  if (raw === undefined || raw === '') return 50;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    throw new AgentError('CONFIG_INVALID', `WORKER_MAX_ACTIVITIES must be a positive integer, got "${raw}"`, {
      where: 'WORKER_MAX_ACTIVITIES',
    });
  }
  return value;
}

/** Slot, poller and cache settings shared by both workers (and the bench's floor worker). */
export function workerTuning(env: NodeJS.ProcessEnv = process.env) {
  return {
    maxConcurrentActivityTaskExecutions: maxActivities(env),
    shutdownGraceTime: '5 seconds',
    // Cancellation reaches an activity only with a heartbeat that gets to the server;
    // the default throttle (0.8 × heartbeat timeout) would delay a cancel by ~48 s.
    maxHeartbeatThrottleInterval: '2 seconds',
  } as const satisfies Partial<WorkerOptions>;
}

/**
 * The queue for activities bound to this host's disk (worktrees): `<queue>@<host-id>`
 * (host-identity.ts). Stable across worker restarts on the same host, so a run resumes
 * where its worktree is.
 */
export function hostTaskQueueName(taskQueue: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.TEMPORAL_HOST_TASK_QUEUE ?? `${taskQueue}@${hostIdFrom(env)}`;
}

/** A worker pair: the shared queue (workflows, any activity) and this host's queue (worker-pair.ts). */
export type RunWorker = WorkerPair;

/**
 * Starts importing the activities' modules (once per process); a command calls it while
 * it waits on the network, before it creates the worker.
 */
export function preloadActivities(): Promise<typeof WorkerActivitiesModule> {
  return import('../activities/all-activities.js');
}

/**
 * Imports the activities and builds them (on the real adapters unless `deps` is given),
 * then starts loading what their first calls need (deps.warmUp: the model SDK) while the
 * workflow thread may still be starting: a resumed step, dispatched as soon as the worker
 * polls, would otherwise wait for it.
 */
async function loadActivities(deps: ActivityDeps | undefined, hostTaskQueue: string): Promise<WorkerActivities> {
  const { createWorkerActivities, createDefaultDeps } = await preloadActivities();
  const withHost = { ...(deps ?? createDefaultDeps()), hostTaskQueue };
  withHost.warmUp?.();
  return createWorkerActivities(withHost);
}

export async function createRunWorker(
  options: RunWorkerOptions,
): Promise<{ worker: RunWorker; connection: NativeConnection }> {
  installRuntime();
  if (options.runEndsReportedByCaller === true) runEndsReportedByCaller = true;
  const hostTaskQueue = hostTaskQueueName(options.taskQueue);
  // The activities (most of this worker's modules, ~0.3 s to load) load in the background
  // while the connection opens and the shared worker's workflow thread loads the bundle on
  // another core (~0.5 s): the workers register them by name (lazy-activities.ts).
  const loaded = loadActivities(options.deps, hostTaskQueue);
  loaded.catch(() => undefined); // awaited below; not unhandled if the connection fails first
  const connection = options.connection ?? (await NativeConnection.connect({ address: options.address }));
  // A worker on a namespace without the run's search attributes would fail every workflow
  // task that sets one (BadSearchAttributes, retried for good): register them or refuse to
  // start with the commands that fix it. One list call (a few ms) before any worker exists.
  try {
    await searchAttributesReady(connection.operatorService, options);
  } catch (err) {
    if (options.connection === undefined) await connection.close();
    throw err;
  }
  const guard = badSearchAttributesGuard(
    guardPortsOf(connection, options.namespace, options.taskQueue),
    options,
    (line) => process.stderr.write(`${line}\n`),
  );
  logListeners.add((text) => guard.notice(text));
  const tracing = options.tracing ?? tracingPluginFromEnv(process.env);
  // A retried step (its worker may be dead) must not wait out that worker's sticky queue (sticky-reset.ts).
  const interceptors: WorkerInterceptors = {
    activity: [stickyResetInterceptor(resetStickyQueueOf(connection, options.namespace))],
  };
  const common = {
    ...(tracing === undefined ? {} : { plugins: [tracing] }),
    connection,
    namespace: options.namespace,
    activities: lazyActivities(loaded),
    interceptors,
    ...(options.identity ? { identity: options.identity } : {}),
    ...workerTuning(),
  } as const;
  const sharedCreating = Worker.create({
    ...common,
    taskQueue: options.taskQueue,
    ...(options.workflowBundle
      ? { workflowBundle: options.workflowBundle }
      : workflowSource({ pluginsChangeBundle: tracing !== undefined })),
  });
  sharedCreating.catch(() => undefined); // reported by the pair's run()/runUntil()/ready
  const [host] = await Promise.all([Worker.create({ ...common, taskQueue: hostTaskQueue }), loaded]).catch(
    async (err: unknown) => {
      // A created shared worker holds the connection until it has run: stop it first.
      await sharedCreating.then((w) => w.runUntil(Promise.resolve())).catch(() => undefined);
      throw err;
    },
  );
  const worker: RunWorker = workerPair(host, sharedCreating, hostTaskQueue);
  return { worker, connection };
}
