/**
 * CommandRunner adapter on execa: `bash -c <command>` in its own process group, inside
 * the same sandbox as the agent's bash tool (sandbox-launch: private HOME, no worker
 * credentials or service addresses, namespaces where available). The commands are
 * configured, but what they run (tests, build scripts) is code the agent wrote.
 *
 * Why our own timeout/cancel instead of execa's `timeout`/`cancelSignal` kill: those
 * signal only bash itself; a grandchild (`npm test` → node, `a | b`) keeps the output
 * pipes open and the await hangs until it exits. Killing the whole group (negative
 * pid) ends everything the command started. execa's `cancelSignal` is still passed so
 * an abort before spawn is honoured.
 */
import { execa } from 'execa';
import { CappedText, DEFAULT_OUTPUT_CAP_CHARS } from './capped-text.js';
import { sandboxCommand } from '../tools/sandbox-launch.js';
import type { CommandOutcome, CommandOutcomeKind, CommandRequest, CommandRunner } from './command-runner.js';

export interface ExecaCommandRunnerOptions {
  /** Default timeout when a request gives none (ms). */
  readonly defaultTimeoutMs?: number;
  /** Per-stream cap of captured characters. */
  readonly outputCapChars?: number;
  /** Grace period between SIGTERM and SIGKILL (ms). */
  readonly killGraceMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;
const DEFAULT_KILL_GRACE_MS = 2000;

export function createExecaCommandRunner(options: ExecaCommandRunnerOptions = {}): CommandRunner {
  return { run: (request) => runWithExeca(request, options) };
}

async function runWithExeca(request: CommandRequest, options: ExecaCommandRunnerOptions): Promise<CommandOutcome> {
  const cap = options.outputCapChars ?? DEFAULT_OUTPUT_CAP_CHARS;
  const stdout = new CappedText(cap);
  const stderr = new CappedText(cap);
  const all = new CappedText(cap);
  const started = Date.now();
  let killedFor: 'timedOut' | 'canceled' | undefined;

  const sandbox = await sandboxCommand({
    dir: request.cwd,
    command: request.command,
    readOnly: false,
    ...(request.env ? { extraEnv: request.env } : {}),
  });
  const subprocess = execa(sandbox.file, sandbox.args, {
    cwd: request.cwd,
    env: sandbox.env,
    extendEnv: false,
    reject: false,
    buffer: false,
    all: true,
    stdin: 'ignore',
    detached: true,
    ...(request.signal ? { cancelSignal: request.signal } : {}),
  });

  subprocess.stdout?.setEncoding('utf8').on('data', (c: string) => stdout.append(c));
  subprocess.stderr?.setEncoding('utf8').on('data', (c: string) => stderr.append(c));
  subprocess.all?.setEncoding('utf8').on('data', (c: string) => all.append(c));

  const killGroup = (reason: 'timedOut' | 'canceled'): void => {
    if (killedFor !== undefined) return;
    killedFor = reason;
    signalGroup(subprocess.pid, 'SIGTERM');
    const force = setTimeout(
      () => signalGroup(subprocess.pid, 'SIGKILL'),
      options.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
    );
    force.unref();
  };
  const timeoutMs = request.timeoutMs ?? options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timer = setTimeout(() => killGroup('timedOut'), timeoutMs);
  const onAbort = (): void => killGroup('canceled');
  request.signal?.addEventListener('abort', onAbort, { once: true });

  try {
    const result = await subprocess;
    const kind: CommandOutcomeKind =
      killedFor ??
      (result.isCanceled ? 'canceled' : typeof result.exitCode === 'number' && !result.signal ? 'exited' : 'crashed');
    const base = {
      kind,
      stdout: stdout.toString(),
      stderr: stderr.toString(),
      all: all.toString(),
      durationMs: Date.now() - started,
    };
    if (kind === 'exited' && typeof result.exitCode === 'number') return { ...base, exitCode: result.exitCode };
    return {
      ...base,
      error: describeEnd({
        kind,
        timeoutMs,
        signal: result.signal,
        message: result.failed ? result.shortMessage : undefined,
      }),
    };
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', onAbort);
  }
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone: nothing left to stop.
  }
}

function describeEnd(options: {
  kind: CommandOutcomeKind;
  timeoutMs: number;
  signal: string | undefined;
  message: string | undefined;
}): string {
  switch (options.kind) {
    case 'timedOut':
      return `timed out after ${Math.round(options.timeoutMs / 100) / 10}s and was killed`;
    case 'canceled':
      return 'canceled';
    case 'crashed':
      return options.signal ? `killed by ${options.signal}` : (options.message ?? 'could not be started');
    case 'exited':
      return 'exited';
  }
}
