/**
 * A worker as a separate process (`src/worker.ts`), so tests can SIGKILL it like a
 * crashed machine, and replace it (`replaceableWorker`, the crash tests' one copy); and
 * `waitFor`, `until` for a synchronous predicate. Under the suite runner the process is the
 * suite's bundle of the same sources (ISSUE_AGENT_TEST_CLI_BUNDLE, test/helpers/
 * cli-bundle-cache.ts): 1.7 s of CPU to its first connect instead of 4.6 s under tsx.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { PROJECT_ROOT } from '../../src/host/project-root.js';
import { serverAddress } from './temporal-env.js';
import { until } from './until.js';

/** How node runs the worker: the suite's bundle of src/worker.ts when the runner built one, else tsx. */
export function workerCommand(env: NodeJS.ProcessEnv = process.env): string[] {
  const entry = env.ISSUE_AGENT_TEST_CLI_BUNDLE ? join(env.ISSUE_AGENT_TEST_CLI_BUNDLE, 'worker.mjs') : undefined;
  if (entry !== undefined && existsSync(entry)) return [entry];
  return ['--import', 'tsx', 'src/worker.ts'];
}

/** Starts `npm run worker`'s entry point with the given environment (no real model key, no rate caps). */
export function startWorkerProcess(env: Record<string, string>): ChildProcess {
  const { ANTHROPIC_API_KEY: _k, MODEL_RPM: _r, MODEL_TPM: _t, ...base } = process.env;
  return spawn(process.execPath, workerCommand(), {
    cwd: PROJECT_ROOT,
    env: { ...base, ...env, NODE_TEST_CONTEXT: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** `until` (helpers/until.ts) for a synchronous predicate, checked every 100 ms. */
export async function waitFor(predicate: () => boolean, timeoutMs: number, what: string): Promise<void> {
  await until(what, () => (predicate() ? true : undefined), timeoutMs, 100);
}

export interface ReplaceableWorker {
  /** SIGKILLs the worker, like a crashed machine, and waits for it to be gone. */
  kill(): Promise<void>;
  /** Starts a new worker (without the first one's `firstExtra`). */
  start(): void;
  /** SIGKILLs whatever worker is left (for `finally`). */
  close(): void;
}

/**
 * A worker process serving `taskQueue` of the test server with the offline model at
 * `modelUrl`, started now (with `firstExtra` on top of its environment, e.g. a PATH with a
 * pausing git), that a test kills and replaces.
 */
export function replaceableWorker(
  env: TestWorkflowEnvironment,
  taskQueue: string,
  modelUrl: string,
  firstExtra: Record<string, string> = {},
): ReplaceableWorker {
  const workerEnv = {
    TEMPORAL_ADDRESS: serverAddress(env),
    TEMPORAL_TASK_QUEUE: taskQueue,
    TEMPORAL_NAMESPACE: env.namespace ?? 'default',
    ANTHROPIC_BASE_URL: modelUrl,
    LOG_LEVEL: 'ERROR',
  };
  let worker: ChildProcess | undefined = startWorkerProcess({ ...workerEnv, ...firstExtra });
  return {
    async kill() {
      const dying = worker;
      worker = undefined;
      dying?.kill('SIGKILL');
      if (dying !== undefined && dying.exitCode === null && dying.signalCode === null)
        await new Promise((resolve) => dying.once('exit', resolve));
    },
    start() {
      worker = startWorkerProcess(workerEnv);
    },
    close() {
      worker?.kill('SIGKILL');
      worker = undefined;
    },
  };
}
