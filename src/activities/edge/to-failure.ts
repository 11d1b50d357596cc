/**
 * The activity edge: AgentErrors become typed ApplicationFailures (non-retryable
 * unless the error says otherwise; a provider's retry-after becomes the next retry
 * delay). Anything unexpected propagates and Temporal retries it. Everything that
 * crosses here lands in workflow history, so every message, detail and stack is
 * passed through the worker's secret redactor first.
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { AgentError } from '../../contracts/errors.js';
import { redactDeep, redactorForEnv, type Redact } from './secret-redactor.js';

/**
 * Errors that say our own code is wrong: retrying cannot help, and a long retry policy
 * would stall the run for half an hour before anyone hears of it.
 */
function isProgrammingError(err: unknown): err is Error {
  return (
    err instanceof TypeError || err instanceof ReferenceError || err instanceof SyntaxError || err instanceof RangeError
  );
}

/** Redacts an error we did not create, in place (message, stack, cause chain). */
function scrubError(err: unknown, redact: Redact, depth = 0): void {
  if (!(err instanceof Error) || depth > 5) return;
  try {
    err.message = redact(err.message);
    if (err.stack !== undefined) err.stack = redact(err.stack);
  } catch {
    // A frozen error keeps its text; nothing we can do without replacing it.
  }
  scrubError(err.cause, redact, depth + 1);
}

export function toFailure(err: unknown, redact: Redact = (text) => text): unknown {
  if (isProgrammingError(err)) {
    scrubError(err, redact);
    return ApplicationFailure.create({
      type: 'INTERNAL_ERROR',
      message: `internal error (a bug, not retried): ${err.name}: ${err.message}`,
      nonRetryable: true,
      cause: err,
    });
  }
  if (!AgentError.isInstance(err)) {
    scrubError(err, redact);
    return err;
  }
  const retryAfterMs = err.details?.['retryAfterMs'];
  return ApplicationFailure.create({
    type: String(err.code),
    message: redact(err.describe()),
    nonRetryable: !err.retryable,
    details: err.details === undefined ? [] : [redactDeep(err.details, redact)],
    ...(typeof retryAfterMs === 'number' && retryAfterMs > 0 ? { nextRetryDelay: retryAfterMs } : {}),
  });
}

type Activity<A extends unknown[], R> = (...args: A) => Promise<R>;

/** This activity was cancelled because its worker is stopping (SIGTERM, a serving start-run that exits). */
function workerShuttingDown(): boolean {
  try {
    return Context.current().cancellationDetails?.workerShutdown === true;
  } catch {
    return false; // not in an activity (a test calling it directly)
  }
}

/**
 * An edge bound to a redactor: wraps activity implementations so errors cross typed and
 * secret-free. Whatever an activity ends with while its worker stops is retried on another
 * worker: a test suite the preflight ran, cancelled by the stop, ended the run as
 * VALIDATION_ABORTED, where a killed worker's step resumed.
 */
export function edgeWith(redact: Redact, shuttingDown: () => boolean = workerShuttingDown) {
  return <A extends unknown[], R>(fn: Activity<A, R>): Activity<A, R> =>
    async (...args: A) => {
      try {
        return await fn(...args);
      } catch (err) {
        if (shuttingDown()) {
          scrubError(err, redact);
          throw ApplicationFailure.create({
            type: WORKER_SHUTDOWN,
            message: 'the worker stopped during this activity: it runs again on a live worker',
            nonRetryable: false,
            ...(err instanceof Error ? { cause: err } : {}),
          });
        }
        throw toFailure(err, redact);
      }
    };
}

/** The failure type of an activity its stopping worker cancelled (retried). */
export const WORKER_SHUTDOWN = 'WORKER_SHUTDOWN';

let processRedactor: Redact | undefined;

/** The edge with the redactor of this process's environment (read once, at the first failure). */
export function atEdge<A extends unknown[], R>(fn: Activity<A, R>): Activity<A, R> {
  return async (...args: A) => {
    try {
      return await fn(...args);
    } catch (err) {
      throw toFailure(err, (processRedactor ??= redactorForEnv(process.env)));
    }
  };
}
