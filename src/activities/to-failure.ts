/**
 * The activity edge: AgentErrors become typed ApplicationFailures (non-retryable
 * unless the error says otherwise; a provider's retry-after becomes the next retry
 * delay). Anything unexpected propagates as is and Temporal retries it.
 */
import { ApplicationFailure } from '@temporalio/common';
import { AgentError } from '../contracts/errors.js';

/**
 * Errors that say our own code is wrong: retrying cannot help, and a long retry policy
 * would stall the run for half an hour before anyone hears of it.
 */
function isProgrammingError(err: unknown): err is Error {
  return (
    err instanceof TypeError || err instanceof ReferenceError || err instanceof SyntaxError || err instanceof RangeError
  );
}

export function toFailure(err: unknown): unknown {
  if (isProgrammingError(err)) {
    return ApplicationFailure.create({
      type: 'INTERNAL_ERROR',
      message: `internal error (a bug, not retried): ${err.name}: ${err.message}`,
      nonRetryable: true,
      cause: err,
    });
  }
  if (!AgentError.isInstance(err)) return err;
  const retryAfterMs = err.details?.['retryAfterMs'];
  return ApplicationFailure.create({
    type: String(err.code),
    message: err.describe(),
    nonRetryable: !err.retryable,
    details: err.details === undefined ? [] : [err.details],
    ...(typeof retryAfterMs === 'number' && retryAfterMs > 0 ? { nextRetryDelay: retryAfterMs } : {}),
  });
}

/** Wraps an activity implementation so its AgentErrors cross the edge typed. */
export function atEdge<A extends unknown[], R>(fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A) => {
    try {
      return await fn(...args);
    } catch (err) {
      throw toFailure(err);
    }
  };
}
