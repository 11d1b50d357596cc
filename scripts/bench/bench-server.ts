/**
 * A private Temporal dev server for the bench and the chaos run: `temporal server
 * start-dev` on free ports (never 7233) with SQLite persistence in a temp dir and the
 * project's search attributes. It can be stopped and started again on the same ports
 * and database file (the chaos run does this mid-run).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { devServerArgs, DISPATCH_DYNAMIC_CONFIG, waitForServer } from '../../src/host/temporal/ensure-temporal.js';
import { resolveTemporalCliPath } from '../../src/host/temporal/temporal-cli.js';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface PrivateDevServer {
  readonly address: string;
  readonly port: number;
  readonly uiPort: number;
  readonly uiUrl: string;
  readonly dbFile: string;
  readonly namespace: string;
  pid(): number | undefined;
  /** SIGTERM (or SIGKILL with `hard`), waits for the process to exit. */
  stop(options?: { hard?: boolean }): Promise<void>;
  /** Starts the server again on the same ports and database file. */
  start(): Promise<void>;
}

export interface DevServerOptions {
  /** Directory for the SQLite file and the server log. */
  readonly dir: string;
  readonly dbName?: string;
  /** Serve the Web UI (default off: `--headless`). */
  readonly ui?: boolean;
  readonly startTimeoutMs?: number;
  /** `--sqlite-pragma` values, e.g. ['journal_mode=WAL', 'synchronous=NORMAL']. */
  readonly sqlitePragmas?: readonly string[];
  /** More `temporal server start-dev` arguments (e.g. `--dynamic-config-value` pairs). */
  readonly extraArgs?: readonly string[];
  /** false: the server's default task-queue read rate (DISPATCH_DYNAMIC_CONFIG left out), to compare. */
  readonly dispatchConfig?: boolean;
}

/** `args` without the `--dynamic-config-value` pairs of DISPATCH_DYNAMIC_CONFIG. */
function withoutDispatchConfig(args: readonly string[]): string[] {
  const drop = new Set<string>(DISPATCH_DYNAMIC_CONFIG);
  return args.filter((a, i) => !drop.has(a) && !(a === '--dynamic-config-value' && drop.has(args[i + 1] ?? '')));
}

export async function startPrivateDevServer(options: DevServerOptions): Promise<PrivateDevServer> {
  const port = await freePort();
  let uiPort = await freePort();
  while (uiPort === port) uiPort = await freePort();
  const dbFile = join(options.dir, options.dbName ?? 'temporal.sqlite');
  const logFile = join(options.dir, 'dev-server.log');
  const args = [
    ...(options.dispatchConfig === false ? withoutDispatchConfig : (a: string[]) => a)(
      devServerArgs({ port, uiPort, dbFile }),
    ),
    '--log-level',
    'error',
    ...(options.ui ? [] : ['--headless']),
    ...(options.sqlitePragmas ?? []).flatMap((p) => ['--sqlite-pragma', p]),
    ...(options.extraArgs ?? []),
  ];
  const address = `127.0.0.1:${port}`;
  const cli = resolveTemporalCliPath();
  let child: ChildProcess | undefined;

  async function start(): Promise<void> {
    const out = openSync(logFile, 'a');
    child = spawn(cli, args, { stdio: ['ignore', out, out] });
    closeSync(out);
    const started = child;
    const exited = new Promise<never>((_, reject) =>
      started.once('exit', (code, signal) =>
        reject(new Error(`temporal dev server exited during start (code ${code}, signal ${signal}); see ${logFile}`)),
      ),
    );
    await Promise.race([waitForServer(address, options.startTimeoutMs ?? 60_000), exited]);
    exited.catch(() => undefined);
  }

  async function stop(stopOptions: { hard?: boolean } = {}): Promise<void> {
    const c = child;
    child = undefined;
    if (c === undefined || c.exitCode !== null || c.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => c.once('exit', () => resolve()));
    c.kill(stopOptions.hard ? 'SIGKILL' : 'SIGTERM');
    const timer = setTimeout(() => c.kill('SIGKILL'), 10_000);
    await gone;
    clearTimeout(timer);
  }

  await start();
  return {
    address,
    port,
    uiPort,
    uiUrl: `http://127.0.0.1:${uiPort}`,
    dbFile,
    namespace: 'default',
    pid: () => child?.pid,
    stop,
    start,
  };
}
