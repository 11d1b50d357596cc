/**
 * The CommandRunner port: run one shell command line in a directory and report what
 * happened, never throwing for an ordinary failure (a non-zero exit is a result, not
 * an error). Validators and anything else that runs configured commands depend on this
 * port, so tests can substitute a fake and adapters can change (execa today).
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
  /** Extra environment variables, layered over the sandbox environment (credential-like names are dropped). */
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

export interface CommandOutcome {
  readonly kind: CommandOutcomeKind;
  /** Present when the process exited by itself. */
  readonly exitCode?: number;
  /** Captured output, capped (head and tail kept, the middle elided with a marker). */
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
