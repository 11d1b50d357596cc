/**
 * Starting the embedded dev server when nothing answered, and saying truthfully what
 * answers afterwards. The probe before it (a gRPC call with a 1.5 s deadline) can miss a
 * running server on a loaded machine: a second `temporal server start-dev` started then
 * dies with "address already in use" while the first goes on answering, and the dead
 * child's pid would be reported as the server's. So: an address that
 * accepts TCP is never started over (we wait for whatever holds it to answer); the
 * child's exit is watched while waiting; an answer after our child exited is "an
 * already-running server answers" (no pid); no answer stops our child and fails naming
 * the address and the child's last output. Dependencies come in as DevServerPorts.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AgentError, HostErrorCode } from '../../contracts/errors.js';

export interface DevServerPorts {
  /** host:port the dev server listens on (its `--ip`/`--port`). */
  readonly address: string;
  /** Where dev-server.log goes. */
  readonly stateDir: string;
  readonly cliPath: () => string;
  readonly args: () => readonly string[];
  /** Whether a Temporal frontend answers at the address. */
  readonly answers: (address: string) => Promise<boolean>;
  /** Whether anything accepts a TCP connection at the address (cheap, rarely missed under load). */
  readonly portHeld: (address: string) => Promise<boolean>;
  readonly startTimeoutMs: number;
  /** How long an answer is watched for our child's exit (a second start that lost the bind dies soon). */
  readonly settleMs: number;
  /** Prints a line for the user (stderr). */
  readonly say: (line: string) => void;
}

export const DevServerOutcomeKind = { Started: 'started', AlreadyRunning: 'already-running' } as const;

export type DevServerOutcome =
  | { readonly kind: typeof DevServerOutcomeKind.Started; readonly pid: number; readonly logFile: string }
  /** Another server answers; `childExit` says how the child we started ended, when we started one. */
  | { readonly kind: typeof DevServerOutcomeKind.AlreadyRunning; readonly childExit?: string };

/** Whether anything accepts a TCP connection at host:port within `timeoutMs`. */
export function tcpPortHeld(address: string, timeoutMs = 3000): Promise<boolean> {
  const at = address.lastIndexOf(':');
  const host = address.slice(0, at).replace(/^\[|\]$/g, '');
  const port = Number(address.slice(at + 1));
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (held: boolean) => {
      socket.destroy();
      resolve(held);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function answersWithin(
  ports: DevServerPorts,
  deadline: number,
  stop: () => boolean | Promise<boolean>,
): Promise<boolean> {
  while (Date.now() < deadline) {
    if (await ports.answers(ports.address)) return true;
    if (await stop()) return false;
    await sleep(300);
  }
  return false;
}

function unreachable(message: string): AgentError {
  return new AgentError(HostErrorCode.TemporalUnreachable, message, {
    where: 'TEMPORAL_ADDRESS',
    expected: 'a reachable Temporal frontend, or the address free for the local dev server',
  });
}

/** The last lines the child wrote (the log from `from` on), for the error. */
function outputSince(logFile: string, from: number): string {
  const text = existsSync(logFile) ? readFileSync(logFile).subarray(from).toString('utf8') : '';
  const tail = text.trim().split('\n').slice(-8).join('\n');
  return tail === '' ? '(no output)' : tail.slice(-2000);
}

/**
 * Starts the dev server detached (it outlives the command, so the Web UI stays up) unless
 * something already holds the address; resolves once a server answers there.
 */
export async function startLocalDevServer(ports: DevServerPorts): Promise<DevServerOutcome> {
  const { address } = ports;
  const seconds = Math.round(ports.startTimeoutMs / 1000);
  if (await ports.portHeld(address)) {
    if (await answersWithin(ports, Date.now() + ports.startTimeoutMs, () => false)) {
      return { kind: DevServerOutcomeKind.AlreadyRunning };
    }
    throw unreachable(`something listens on ${address} but no Temporal server answered there within ${seconds} s`);
  }
  ports.say(`no Temporal server answers on ${address}: starting the local dev server (state in ${ports.stateDir})`);
  mkdirSync(ports.stateDir, { recursive: true });
  const logFile = join(ports.stateDir, 'dev-server.log');
  const from = existsSync(logFile) ? statSync(logFile).size : 0;
  const out = openSync(logFile, 'a');
  const child = spawn(ports.cliPath(), ports.args(), { detached: true, stdio: ['ignore', out, out] });
  closeSync(out);
  let exit: string | undefined;
  child.once('exit', (code, signal) => (exit = signal === null ? `exit code ${code}` : `signal ${signal}`));
  child.once('error', (err) => (exit = err.message));
  child.unref();
  // Our child gone: wait on only if something holds the address (it lost the bind to it).
  let heldAfterExit: boolean | undefined;
  const answered = await answersWithin(ports, Date.now() + ports.startTimeoutMs, async () => {
    if (exit === undefined) return false;
    heldAfterExit ??= await ports.portHeld(address);
    return !heldAfterExit;
  });
  if (answered) {
    const settle = Date.now() + ports.settleMs;
    while (exit === undefined && Date.now() < settle) await sleep(50);
    if (exit !== undefined) return { kind: DevServerOutcomeKind.AlreadyRunning, childExit: exit };
    return { kind: DevServerOutcomeKind.Started, pid: child.pid ?? -1, logFile };
  }
  if (exit === undefined && child.pid !== undefined) {
    try {
      process.kill(-child.pid, 'SIGTERM'); // the group of the child we started (detached)
    } catch {
      // already gone
    }
  }
  throw unreachable(
    `no Temporal server answers on ${address}: the dev server started there ` +
      `${exit === undefined ? `did not answer within ${seconds} s and was stopped` : `ended (${exit})`}; ` +
      `its last output (${logFile}):\n${outputSince(logFile, from)}`,
  );
}
