/**
 * The CommandRunner port: run one shell command line in a directory and report what
 * happened, never throwing for an ordinary failure (a non-zero exit is a result, not
 * an error). The one way the harness runs a command line: validators, preflight, the
 * environment phase's setup and probes all depend on this port, so tests can substitute
 * a fake (the adapter: spawner-command-runner, in one of the sandbox's shapes).
 */

/** How a command ended. Closed set: callers switch over it exhaustively. */
export const CommandOutcomeKind = {
  /** The process exited by itself (any exit code). */
  Exited: 'exited',
  /** We killed it because it ran past `timeoutMs`. */
  TimedOut: 'timedOut',
  /** We killed it because the caller's AbortSignal fired. */
  Canceled: 'canceled',
  /** It could not be started or died from a signal we did not send. */
  Crashed: 'crashed',
} as const;
export type CommandOutcomeKind = (typeof CommandOutcomeKind)[keyof typeof CommandOutcomeKind];

export interface CommandRequest {
  /** A bash command line (configured by the agent definition, never built from untrusted text). */
  readonly command: string;
  /** Absolute working directory. */
  readonly cwd: string;
  /**
   * Environment variables. In the agent's sandbox: layered over its environment
   * (credential-like names are dropped). In the setup sandbox: the whole environment
   * (already without credentials). An agent-written setup's command gets the agent's own.
   */
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Setup sandbox only: directories the command may write besides `cwd`. */
  readonly writableDirs?: readonly string[];
  /** Setup sandbox only: directories it sees read-only. */
  readonly readOnlyDirs?: readonly string[];
}

export interface CommandOutcome {
  readonly kind: CommandOutcomeKind;
  /** Present when the process exited by itself. */
  readonly exitCode?: number;
  /** Captured output, capped (head and tail kept, the middle elided with a marker) and redacted. */
  readonly stdout: string;
  readonly stderr: string;
  /** stdout and stderr interleaved in arrival order, capped the same way. */
  readonly all: string;
  readonly durationMs: number;
  /** For `crashed` (and kills): what went wrong, in one line. */
  readonly error?: string;
}

export interface CommandRunner {
  run(request: CommandRequest): Promise<CommandOutcome>;
}
