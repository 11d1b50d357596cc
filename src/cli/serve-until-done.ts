/**
 * Waits for a workflow's result, following its progress meanwhile; when no worker polls
 * the task queue, serves it with an in-process worker until the result arrives (so
 * `start-run` and `start-batch` work on embedded defaults without `npm run worker`).
 *
 * A worker that was killed still counts as a poller for up to a long-poll window, so a
 * command started right after the kill waits on a worker that is gone. While it waits it
 * looks again; once no live poller is left, it takes over and serves in this process, but
 * only with model credentials of its own: a command started without them (the worker had
 * them) would take the step and fail the run on MODEL_AUTH, where the run could simply
 * wait for the operator to start a worker again (seen killing a worker under a following
 * start-run). It then says so, still releases the dead worker's steps, and keeps following.
 */
import type { CliTemporal } from '../host/temporal/temporal-client.js';
import { livePollers } from '../host/temporal/temporal-client.js';
import { AgentError, HostErrorCode } from '../contracts/errors.js';
import { hasModelCredentials } from '../host/model-credentials.js';
import { printLine } from '../host/terminal-text.js';

export interface ServeOptions {
  readonly embedded: boolean;
  /** Prints progress until `done()` says the result arrived. */
  readonly follow?: (done: () => boolean) => Promise<void>;
  /** Says why this process starts serving after all (default: stderr). */
  readonly say?: (line: string) => void;
  /**
   * Called when this process takes over from workers that are gone: releases the steps
   * they had started (orphaned-activities.ts) so they run again now, not after their
   * heartbeat timeout. Returns one line per released step.
   */
  readonly releaseOrphans?: () => Promise<readonly string[]>;
  /** How many live workers poll the task queue (default: asked of Temporal). */
  readonly pollers?: () => Promise<number>;
  /** Whether this process can call the model (default: ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL set). */
  readonly canServe?: () => boolean;
  /** How often to look for live workers (default 5 s). */
  readonly recheckMs?: number;
}

const RECHECK_MS = 5_000;

/**
 * Resolves true as soon as `pollers()` counts none (the workers that polled are gone),
 * false when `settled` settles first. Never rejects: a failed look is tried again.
 */
export async function workersGone(
  settled: Promise<unknown>,
  pollers: () => Promise<number>,
  intervalMs = RECHECK_MS,
): Promise<boolean> {
  let done = false;
  const finished = settled.then(
    () => (done = true),
    () => (done = true),
  );
  while (!done) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([finished, new Promise<void>((resolve) => (timer = setTimeout(resolve, intervalMs)))]);
    clearTimeout(timer);
    if (done) return false;
    const count = await pollers().catch(() => 1);
    if (count === 0 && !done) return true;
  }
  return false;
}

export async function serveUntilDone<R>(cli: CliTemporal, result: Promise<R>, options: ServeOptions): Promise<R> {
  let finished = false;
  const tracked = result.finally(() => (finished = true));
  const watcher = options.follow ? options.follow(() => finished) : Promise.resolve();
  let serve = options.embedded;
  if (!serve && (await workersGone(tracked, options.pollers ?? (() => livePollers(cli)), options.recheckMs))) {
    const say = options.say ?? ((line: string) => printLine(process.stderr, line));
    serve = (options.canServe ?? (() => hasModelCredentials()))();
    const gone = `no live worker polls task queue ${cli.taskQueue} any more (the one that did is gone)`;
    say(serve ? `${gone}: serving in this process` : `${gone}; ${NOT_SERVING}`);
    // A failed look leaves the steps to their heartbeat timeout: slower, nothing lost.
    for (const line of (await options.releaseOrphans?.().catch(() => [])) ?? []) say(line);
  }
  let value: R;
  if (serve) {
    // Loaded only to serve: the worker SDK (webpack, its own file system) costs a command
    // that does not serve, which is most of them when a worker runs, ~0.3 s of CPU.
    const [{ createRunWorker }, { PromiseCompletionTimeoutError }] = await Promise.all([
      import('../worker/create-run-worker.js'),
      import('@temporalio/worker'),
    ]);
    const { worker, connection } = await createRunWorker({
      address: cli.target.address,
      namespace: cli.target.namespace,
      taskQueue: cli.taskQueue,
      runEndsReportedByCaller: true,
    });
    try {
      value = await worker.runUntil(tracked);
    } catch (err) {
      // The SDK stops the worker on SIGINT/SIGTERM, and runUntil then rejects with its own
      // timeout error: say what happened instead, and that nothing is lost.
      if (err instanceof PromiseCompletionTimeoutError) throw interrupted(cli.taskQueue);
      throw err;
    } finally {
      // After an interrupt the workers may still hold the connection: closing it then
      // must not replace the error that says what happened.
      await connection.close().catch(() => undefined);
    }
  } else {
    value = await tracked;
  }
  await watcher;
  return value;
}

/** Why a process that could take over does not, and what the run waits for. */
export const NOT_SERVING =
  'this process has no model credentials (ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL), so it does not serve the run: ' +
  'it waits, from its last completed step, for a worker (issue-agent worker, with the credentials)';

function interrupted(taskQueue: string): AgentError {
  return new AgentError(
    HostErrorCode.Interrupted,
    `this command was stopped (SIGINT/SIGTERM) while it served task queue ${taskQueue}, before the run ended. ` +
      'The run goes on in Temporal from its last completed step: run the same command again to attach, or start a worker (issue-agent worker).',
  );
}
