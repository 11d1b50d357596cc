/**
 * The activity edge: AgentErrors become typed ApplicationFailures (non-retryable
 * unless the error says otherwise; a provider's retry-after becomes the next retry
 * delay). Anything unexpected propagates and Temporal retries it. Everything that
 * crosses here lands in workflow history, so every message, detail and stack is
 * passed through the worker's secret redactor first.
 */
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

/** An edge bound to a redactor: wraps activity implementations so errors cross typed and secret-free. */
export function edgeWith(redact: Redact) {
  return <A extends unknown[], R>(fn: Activity<A, R>): Activity<A, R> =>
    async (...args: A) => {
      try {
        return await fn(...args);
      } catch (err) {
        throw toFailure(err, redact);
      }
    };
}

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
