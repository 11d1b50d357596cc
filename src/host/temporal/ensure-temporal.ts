/**
 * The embedded Temporal: `temporal server start-dev` with SQLite persistence in
 * .temporal/ (a clone) or the XDG state dir (an installed copy), the Web UI on 8233 and the project's search attributes registered.
 * `start-run` and `demo` reuse a server that answers and start this one otherwise.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import { AgentError } from '../../contracts/errors.js';
import { resolveTemporalCliPath } from './temporal-cli.js';
import { devServerStateDir } from '../state-paths.js';
import { printLine } from '../terminal-text.js';
import { DevServerOutcomeKind, startLocalDevServer, tcpPortHeld, type DevServerPorts } from './dev-server-start.js';

/** Kept in sync with src/workflows/search-attributes.ts (a test checks it). */
export const SEARCH_ATTRIBUTE_FLAGS: readonly string[] = [
  'IssueNumber=Int',
  'AgentName=Keyword',
  'StepId=Keyword',
  'RunPhase=Keyword',
  'CostUsd=Double',
  'TokensTotal=Int',
  'DefinitionHash=Keyword',
  'RepoId=Keyword',
  // The pipeline's (src/workflows/pipeline/pipeline-search-attributes.ts).
  'PipelinePhase=Keyword',
  'PipelineCycle=Int',
  'PipelineAgent=Keyword',
  'PipelineOutcome=Keyword',
];

export const DEFAULT_ADDRESS = '127.0.0.1:7233';
export const DEFAULT_UI_PORT = 8233;
/** `.temporal/` in a clone, `$XDG_STATE_HOME/issue-agent/temporal` in an installed copy. */
export const STATE_DIR = devServerStateDir();

/**
 * Dynamic config of the embedded dev server: task queues are read as soon as tasks are
 * written. Not eager activity dispatch (system.enableActivityEagerExecution): the step
 * activities run on the host queue, so it only reaches the setup activities, and with
 * 200 runs at once it made the bench's r200 phase 50% slower (125 s vs 84 s).
 */
export const DISPATCH_DYNAMIC_CONFIG = [
  'history.transferProcessorMaxPollRPS=1000',
  'history.timerProcessorMaxPollRPS=1000',
] as const;

export function devServerArgs(options: { port?: number; uiPort?: number; dbFile?: string } = {}): string[] {
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(options.port ?? 7233),
    '--ui-port',
    String(options.uiPort ?? DEFAULT_UI_PORT),
    '--db-filename',
    options.dbFile ?? join(STATE_DIR, 'dev.sqlite'),
    '--log-level',
    'warn',
    // WAL with NORMAL sync roughly halves per-step overhead (npm run bench); a crash of
    // the machine may lose the last transactions, acceptable for the embedded default.
    '--sqlite-pragma',
    'journal_mode=wal',
    '--sqlite-pragma',
    'synchronous=normal',
    // The history service reads its task queues at most 20 times a second by default, so
    // every workflow or activity task waits up to 50 ms before it is dispatched: that was
    // most of a step's cost (npm run bench: floorMsPerStep 50 → 18 ms with these).
    ...DISPATCH_DYNAMIC_CONFIG.flatMap((value) => ['--dynamic-config-value', value]),
  ];
  for (const attr of SEARCH_ATTRIBUTE_FLAGS) args.push('--search-attribute', attr);
  return args;
}

export async function serverAnswers(address: string, timeoutMs = 1500): Promise<boolean> {
  try {
    const connection = await Connection.connect({ address, connectTimeout: timeoutMs });
    try {
      await connection.workflowService.getSystemInfo({});
      return true;
    } finally {
      await connection.close();
    }
  } catch {
    return false;
  }
}

export async function waitForServer(address: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await serverAnswers(address)) return;
    await sleep(300);
  }
  throw new AgentError(
    'TEMPORAL_UNREACHABLE',
    `the Temporal server at ${address} did not answer within ${Math.round(timeoutMs / 1000)} s`,
    {
      where: 'TEMPORAL_ADDRESS',
      expected: 'a reachable Temporal frontend (host:port)',
    },
  );
}

/** The real dependencies of starting the local dev server (dev-server-start.ts). */
export function defaultDevServerPorts(): DevServerPorts {
  return {
    address: DEFAULT_ADDRESS,
    stateDir: STATE_DIR,
    cliPath: resolveTemporalCliPath,
    args: () => devServerArgs(),
    answers: (address) => serverAnswers(address),
    portHeld: (address) => tcpPortHeld(address),
    startTimeoutMs: 60_000,
    settleMs: 1000,
    say: (line) => printLine(process.stderr, line),
  };
}

export interface TemporalTarget {
  readonly address: string;
  readonly namespace: string;
  readonly uiUrl: string;
  readonly started: boolean;
  /** The dev server this process started (it outlives the command), to say how to stop it. */
  readonly pid?: number;
}

/**
 * Reuses the server at TEMPORAL_ADDRESS when set (it must answer), else the local
 * dev server, starting it when nothing answers on the default address.
 */
export async function ensureTemporal(
  env: NodeJS.ProcessEnv = process.env,
  ports: DevServerPorts = defaultDevServerPorts(),
): Promise<TemporalTarget> {
  const namespace = env.TEMPORAL_NAMESPACE ?? 'default';
  const explicit = env.TEMPORAL_ADDRESS;
  if (explicit !== undefined && explicit !== '') {
    if (!(await serverAnswers(explicit, 5000))) {
      throw new AgentError('TEMPORAL_UNREACHABLE', `no Temporal server answers at TEMPORAL_ADDRESS=${explicit}`, {
        where: 'TEMPORAL_ADDRESS',
        expected: 'a reachable Temporal frontend, or unset it to use the embedded dev server',
      });
    }
    return {
      address: explicit,
      namespace,
      uiUrl: uiUrlFor(explicit, env),
      started: false,
    };
  }
  const address = ports.address;
  const uiUrl = uiUrlFor(address, env);
  if (await ports.answers(address)) return { address, namespace, uiUrl, started: false };
  const outcome = await startLocalDevServer(ports);
  if (outcome.kind === DevServerOutcomeKind.AlreadyRunning) {
    ports.say(
      outcome.childExit === undefined
        ? `a Temporal server already running on ${address} answers (it was slow to answer); nothing was started`
        : `a Temporal server already running on ${address} answers; the dev server started beside it ended ` +
            `(${outcome.childExit}), so nothing was started`,
    );
    return { address, namespace, uiUrl, started: false };
  }
  const { pid } = outcome;
  ports.say(`local dev server running (pid ${pid}); it keeps running after this command (stop it with kill ${pid})`);
  return { address, namespace, uiUrl, started: true, pid };
}

/**
 * The Web UI address: TEMPORAL_UI_URL when set, else the dev server's convention (the UI
 * on the frontend port + 1000: 7233 → 8233, 7300 → 8300) on the frontend's host.
 */
export function uiUrlFor(address: string, env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.TEMPORAL_UI_URL?.trim();
  if (configured) return configured.replace(/\/+$/, '');
  const match = /^(?:[a-z]+:\/\/)?(\[[^\]]+\]|[^:/]+)(?::(\d+))?/i.exec(address);
  const host = match?.[1] ?? '127.0.0.1';
  const port = match?.[2] === undefined ? DEFAULT_UI_PORT : Number(match[2]) + 1000;
  return `http://${host}:${port <= 65535 ? port : DEFAULT_UI_PORT}`;
}

export function workflowUrl(target: TemporalTarget, workflowId: string): string {
  return `${target.uiUrl}/namespaces/${encodeURIComponent(target.namespace)}/workflows/${encodeURIComponent(workflowId)}`;
}
