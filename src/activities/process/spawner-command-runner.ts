/**
 * CommandRunner adapter on the spawner helper: `bash -c <command>` in its own process
 * group, inside one of the sandbox's shapes (sandbox-launch: private HOME, no worker
 * credentials or service addresses, namespaces where available). The commands are
 * configured, but what they run (tests, build scripts, install scripts) is code the
 * agent or the repository wrote.
 *
 * A timeout or cancel ends the whole group (SIGTERM, then SIGKILL after a grace): a
 * grandchild (`npm test` → node, `a | b`) would otherwise keep the output pipes open.
 * The process is started by the spawner helper, so the fork never blocks the worker.
 * Output is redacted of the worker's secrets as they are at the call (a key may be
 * rotated while the worker runs): a second line behind the sandbox's environment.
 */
import { AgentError } from '../../contracts/errors.js';
import { DEFAULT_OUTPUT_CAP_CHARS } from './capped-text.js';
import { sharedSpawner, type ProcessSpawner } from './spawner/process-spawner.js';
import { sandboxCommand, type SandboxRequest } from '../tools/sandbox-launch.js';
import { redactorForEnv, type Redact } from '../edge/secret-redactor.js';
import type { CommandOutcome, CommandOutcomeKind, CommandRequest, CommandRunner } from './command-runner.js';

/** The sandbox's shapes a runner starts its commands in. */
export const CommandSandbox = {
  /**
   * The agent's, offline: configured commands (validators, preflight), with a HOME and build
   * outputs of the validators' own (tools/validator-view.ts). `env` is layered over the agent's.
   */
  Agent: 'agent',
  /** The agent's with the host's network: an agent-written setup's commands. `env` is not used. */
  AgentNetworked: 'agentNetworked',
  /** The environment phase's: `env` whole, the request's writable and read-only dirs, the network. */
  Setup: 'setup',
} as const;
export type CommandSandbox = (typeof CommandSandbox)[keyof typeof CommandSandbox];

export interface SpawnerCommandRunnerOptions {
  /** Default timeout when a request gives none (ms). */
  readonly defaultTimeoutMs?: number;
  /** Per-stream cap of captured characters (head and tail kept). */
  readonly outputCapChars?: number;
  /** Grace period between SIGTERM and SIGKILL (ms). */
  readonly killGraceMs?: number;
  /** The spawner (default: the process-wide helper). */
  readonly spawner?: ProcessSpawner;
  /** Where commands run (default: the agent's sandbox). */
  readonly sandbox?: CommandSandbox;
  /** SIGKILL the group once bash has exited, so nothing it started outlives it. */
  readonly killGroupAfterExit?: boolean;
  /** Default: the worker's secrets at the time of the call. */
  readonly redact?: Redact;
}

const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;
const DEFAULT_KILL_GRACE_MS = 2000;

export function createSpawnerCommandRunner(options: SpawnerCommandRunnerOptions = {}): CommandRunner {
  return { run: (request) => runCommand(request, options) };
}

async function runCommand(request: CommandRequest, options: SpawnerCommandRunnerOptions): Promise<CommandOutcome> {
  const started = Date.now();
  const timeoutMs = request.timeoutMs ?? options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  const sandbox = await sandboxCommand(sandboxRequest(options.sandbox ?? CommandSandbox.Agent, request));
  const redact = options.redact ?? redactorForEnv(process.env);
  try {
    const result = await (options.spawner ?? sharedSpawner()).run({
      file: sandbox.file,
      args: sandbox.args,
      cwd: request.cwd,
      env: sandbox.env,
      group: true,
      all: true,
      maxChars: options.outputCapChars ?? DEFAULT_OUTPUT_CAP_CHARS,
      capMode: 'headTail',
      timeoutMs,
      killGraceMs: options.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
      ...(options.killGroupAfterExit === true ? { killGroupAfterExit: true } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
    });
    const kind: CommandOutcomeKind = result.timedOut
      ? 'timedOut'
      : result.canceled
        ? 'canceled'
        : result.exitCode !== null
          ? 'exited'
          : 'crashed';
    const base = {
      kind,
      stdout: redact(result.stdout),
      stderr: redact(result.stderr),
      all: redact(result.all ?? ''),
      durationMs: Date.now() - started,
    };
    if (kind === 'exited' && result.exitCode !== null) return { ...base, exitCode: result.exitCode };
    return { ...base, error: describeEnd(kind, timeoutMs, result.signal) };
  } catch (err) {
    // The helper itself died: nothing is known of the command, so the activity retries.
    if (AgentError.isInstance(err)) throw err;
    if (request.signal?.aborted) {
      return { kind: 'canceled', stdout: '', stderr: '', all: '', durationMs: Date.now() - started, error: 'canceled' };
    }
    const message = redact(err instanceof Error ? err.message : String(err));
    return { kind: 'crashed', stdout: '', stderr: '', all: '', durationMs: Date.now() - started, error: message };
  }
}

function sandboxRequest(sandbox: CommandSandbox, request: CommandRequest): SandboxRequest {
  const base = { dir: request.cwd, command: request.command, readOnly: false };
  switch (sandbox) {
    case CommandSandbox.Agent:
      return { ...base, validator: true, ...(request.env ? { extraEnv: request.env } : {}) };
    case CommandSandbox.AgentNetworked:
      return { ...base, network: true };
    case CommandSandbox.Setup:
      return {
        ...base,
        network: true,
        setup: { env: request.env ?? {}, writable: request.writableDirs ?? [], readOnly: request.readOnlyDirs ?? [] },
      };
  }
}

function describeEnd(kind: CommandOutcomeKind, timeoutMs: number, signal: string | null): string {
  switch (kind) {
    case 'timedOut':
      return `timed out after ${Math.round(timeoutMs / 100) / 10}s and was killed`;
    case 'canceled':
      return 'canceled';
    case 'crashed':
      return signal ? `killed by ${signal}` : 'could not be started';
    case 'exited':
      return 'exited';
  }
}
