/**
 * The one error hierarchy of the project. Every error we raise on purpose is an
 * AgentError with a stable `code` and the data a user needs to fix the problem.
 * Activities convert AgentErrors into non-retryable ApplicationFailures at their edge
 * (src/activities/edge/to-failure.ts); the CLI prints `message` without a stack trace.
 */
import type { FailureType } from './failures.js';

/**
 * Codes of errors that never cross an activity boundary: they stop the host program
 * (the CLI, the worker) before or around a run, never a run itself.
 */
export const HostErrorCode = {
  Usage: 'USAGE',
  TemporalUnreachable: 'TEMPORAL_UNREACHABLE',
  TemporalCliMissing: 'TEMPORAL_CLI_MISSING',
  /** The namespace lacks custom search attributes runs set, and registering them was refused. */
  SearchAttributesMissing: 'SEARCH_ATTRIBUTES_MISSING',
  RunNotFound: 'RUN_NOT_FOUND',
  /** `extend` or `reply` to a run that is not waiting for it (not paused on its budget, asked nothing). */
  RunNotWaiting: 'RUN_NOT_WAITING',
  IssueClosed: 'ISSUE_CLOSED',
  ArtifactMissing: 'ARTIFACT_MISSING',
  ArtifactCorrupt: 'ARTIFACT_CORRUPT',
  /** SIGINT/SIGTERM stopped a command that was serving a run; the run goes on in Temporal. */
  Interrupted: 'INTERRUPTED',
  /** `npm run cluster`: a prerequisite (Go, PostgreSQL, root) or a step of bringing it up failed. */
  ClusterFailed: 'CLUSTER_FAILED',
} as const;
export type HostErrorCode = (typeof HostErrorCode)[keyof typeof HostErrorCode];

/** Every code an AgentError can carry: a closed set. */
export type ErrorCode = FailureType | HostErrorCode;

const MARKER = Symbol.for('durable-issue-agent.AgentError');

export interface AgentErrorOptions {
  /** Where the problem is: a file, `file#/json/pointer`, or a `--flag`. */
  readonly where?: string;
  /** What was expected instead. */
  readonly expected?: string;
  /** Extra structured data (kept small: it may land in workflow history). */
  readonly details?: Readonly<Record<string, unknown>>;
  /** Whether Temporal may retry the operation that failed (default false). */
  readonly retryable?: boolean;
  readonly cause?: unknown;
}

export class AgentError extends Error {
  readonly [MARKER] = true;
  readonly code: ErrorCode;
  readonly where?: string;
  readonly expected?: string;
  readonly details?: Readonly<Record<string, unknown>>;
  readonly retryable: boolean;

  constructor(code: ErrorCode, message: string, options: AgentErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AgentError';
    this.code = code;
    if (options.where !== undefined) this.where = options.where;
    if (options.expected !== undefined) this.expected = options.expected;
    if (options.details !== undefined) this.details = options.details;
    this.retryable = options.retryable ?? false;
  }

  /** Works across module copies and realms, unlike `instanceof`. */
  static isInstance(value: unknown): value is AgentError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }

  /** One line for humans: `CODE: message (at where; expected ...)`. */
  describe(): string {
    const parts = [this.where ? `at ${this.where}` : '', this.expected ? `expected ${this.expected}` : ''].filter(
      Boolean,
    );
    return `${this.code}: ${this.message}${parts.length ? ` (${parts.join('; ')})` : ''}`;
  }
}

/** Bad command-line usage: the CLI exits 2 with the one-line message. */
export class UsageError extends AgentError {
  constructor(message: string, flag?: string) {
    super(HostErrorCode.Usage, message, flag === undefined ? {} : { where: flag });
    this.name = 'UsageError';
  }
}
