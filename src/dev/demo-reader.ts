/**
 * The demo run's reader. What the Web UI shows of a run beyond its history (Current
 * Details, the Queries tab, the call stack) comes from queries, and only a worker polling
 * the run's task queue answers them, even for a finished run; the demo's own worker polls
 * a queue of its own (so outside workers never take its offline-model activities) and
 * exits with the demo, which left the run's page blank although the demo keeps the server
 * up for the UI. So the demo starts this: a workflow-only worker on that queue (no
 * activity, no model, nothing to run), detached. It ends with the server (it checks the
 * server every half minute and stops after three misses) or on SIGTERM.
 *
 * Run as `node <this file> --address HOST:PORT --namespace NS --task-queue Q`.
 */
import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { NativeConnection, Worker } from '@temporalio/worker';
import { AgentError } from '../contracts/errors.js';
import { serverAnswers } from '../host/temporal/ensure-temporal.js';
import { installRuntime } from '../worker/create-run-worker.js';
import { workflowSource } from '../worker/workflow-source.js';

export interface ReaderTarget {
  readonly address: string;
  readonly namespace: string;
  readonly taskQueue: string;
}

const SERVER_CHECK_MS = 30_000;
const MISSES_TO_STOP = 3;

/** Starts the reader detached (it outlives the demo, like the dev server); returns its pid. */
export function spawnDemoReader(target: ReaderTarget, logFile: string): number {
  const out = openSync(logFile, 'a');
  const self = fileURLToPath(import.meta.url);
  // process.execArgv carries tsx's loader when the demo runs from src/ (it is empty from dist/).
  const args = [
    ...process.execArgv,
    self,
    '--address',
    target.address,
    '--namespace',
    target.namespace,
    '--task-queue',
    target.taskQueue,
  ];
  const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', out, out] });
  child.unref();
  return child.pid ?? -1;
}

async function serverGone(address: string): Promise<void> {
  let misses = 0;
  while (misses < MISSES_TO_STOP) {
    await sleep(SERVER_CHECK_MS);
    misses = (await serverAnswers(address)) ? 0 : misses + 1;
  }
}

function flag(argv: readonly string[], name: string): string {
  const i = argv.indexOf(`--${name}`);
  const value = i < 0 ? undefined : argv[i + 1];
  if (value === undefined || value.startsWith('--')) {
    throw new AgentError('CONFIG_INVALID', `demo-reader: --${name} needs a value`, {
      where: `--${name}`,
      expected: 'the value the demo passes (address, namespace, task queue)',
    });
  }
  return value;
}

export async function runDemoReader(target: ReaderTarget): Promise<void> {
  installRuntime('WARN');
  const connection = await NativeConnection.connect({ address: target.address });
  try {
    const worker = await Worker.create({
      connection,
      namespace: target.namespace,
      taskQueue: target.taskQueue,
      // Answers queries of finished runs only: no activities, so none is ever taken here.
      ...workflowSource({ pluginsChangeBundle: false }),
    });
    // SIGTERM stops the worker (the SDK's shutdown signals); so does the server's absence.
    void serverGone(target.address)
      .then(() => worker.shutdown())
      .catch(() => undefined);
    await worker.run();
  } finally {
    await connection.close().catch(() => undefined);
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const argv = process.argv.slice(2);
  runDemoReader({
    address: flag(argv, 'address'),
    namespace: flag(argv, 'namespace'),
    taskQueue: flag(argv, 'task-queue'),
  }).then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`demo-reader: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
