/**
 * Run workers for the phases: one per phase on a fresh task queue, waited for until it
 * polls, killed when the phase is done. Every live worker is tracked so that an
 * interrupted bench (SIGINT/SIGTERM) kills the ones a phase left behind.
 */
import type { ModelServer } from '../../src/dev/model-server/model-server.js';
import type { BenchContext } from './context.js';
import { withTimeout } from './durable.js';
import { uniq } from './runs.js';
import { spawnWorker, type WorkerProcess } from './worker-process.js';

const liveWorkers: WorkerProcess[] = [];

/** Tracks `worker` until it exits. */
export function track(worker: WorkerProcess): WorkerProcess {
  liveWorkers.push(worker);
  void worker.exited.then(() => liveWorkers.splice(liveWorkers.indexOf(worker), 1));
  return worker;
}

export function killLiveWorkers(): Promise<unknown> {
  return Promise.all(liveWorkers.map((w) => w.kill('SIGKILL')));
}

/** Runs `fn` with a run worker (on its own task queue) that talks to `model`. */
export async function withWorker<T>(
  ctx: BenchContext,
  model: ModelServer,
  fn: (taskQueue: string, worker: WorkerProcess) => Promise<T>,
  options: { readonly stateDir?: string } = {},
): Promise<T> {
  const { profileDir } = ctx;
  const taskQueue = uniq('bench');
  const worker = track(
    spawnWorker({
      address: ctx.server.address,
      taskQueue,
      modelUrl: model.url,
      bundlePath: ctx.bundlePath,
      ...(options.stateDir === undefined ? {} : { stateDir: options.stateDir }),
      ...(profileDir === undefined ? {} : { cpuProfileDir: profileDir }),
    }),
  );
  try {
    await withTimeout(worker.ready, 90_000, 'worker start');
    return await fn(taskQueue, worker);
  } finally {
    if (profileDir !== undefined) await withTimeout(worker.kill('SIGTERM'), 30_000, 'worker stop').catch(() => {});
    await worker.kill('SIGKILL');
  }
}
