/**
 * The two workers of a process run as one: the host-queue worker (this host's worktree
 * activities) and the shared-queue worker (workflows and the other activities).
 *
 * The host worker is created in a few ms, the shared one loads the workflow bundle into
 * its threads (~0.5 s). A run resumed after a crash waits for its step activity, which
 * is on the host queue: so the host worker polls as soon as it exists, while the shared
 * one is still being created (npm run bench, resume phase). `ready` says when both poll.
 */
import type { Worker } from '@temporalio/worker';
import { AgentError, HostErrorCode } from '../contracts/errors.js';

export interface WorkerPair {
  readonly hostTaskQueue: string;
  /** Resolves once both workers poll (rejects when the shared worker cannot be created). */
  readonly ready: Promise<void>;
  run(): Promise<void>;
  runUntil<R>(until: Promise<R> | (() => Promise<R>)): Promise<R>;
  shutdown(): void;
}

export function workerPair(host: Worker, sharedCreating: Promise<Worker>, hostTaskQueue: string): WorkerPair {
  let stopping = false;
  let sharedInUse: Worker | undefined;
  let markReady: () => void = () => undefined;
  let markFailed: (err: unknown) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    markFailed = reject;
  });
  ready.catch(() => undefined); // the same error reaches run()/runUntil()

  /** The shared worker once created; a pair stopped meanwhile gets it run and stopped at once. */
  async function shared(): Promise<Worker | undefined> {
    let worker: Worker;
    try {
      worker = await sharedCreating;
    } catch (err) {
      markFailed(err);
      throw err;
    }
    if (stopping) {
      // A created worker holds the connection until it has run: run it to a stop.
      await worker.runUntil(Promise.resolve());
      return undefined;
    }
    markReady();
    sharedInUse = worker;
    return worker;
  }

  return {
    hostTaskQueue,
    ready,
    run: async () => {
      const hostRun = host.run();
      try {
        const worker = await shared();
        // shutdown() between the creation and here found it not running yet: stop it now.
        const sharedRun = stopping ? worker?.runUntil(Promise.resolve()) : worker?.run();
        await Promise.all([sharedRun, hostRun]);
      } catch (err) {
        if (host.getState() === 'RUNNING') host.shutdown();
        await hostRun.catch(() => undefined);
        throw err;
      }
    },
    runUntil: (until) =>
      host.runUntil(async () => {
        const worker = await shared();
        if (worker === undefined)
          throw new AgentError(HostErrorCode.Interrupted, 'the worker was shut down before it polled its task queue');
        return worker.runUntil(until);
      }),
    shutdown: () => {
      stopping = true;
      if (host.getState() === 'RUNNING') host.shutdown();
      // Not created yet: shared() stops it when it comes.
      if (sharedInUse?.getState() === 'RUNNING') sharedInUse.shutdown();
    },
  };
}
