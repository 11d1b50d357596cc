/**
 * The activity edge: AgentErrors become typed ApplicationFailures (non-retryable
 * unless the error says otherwise; a provider's retry-after becomes the next retry
 * delay). Anything unexpected propagates as is and Temporal retries it.
 */
import { ApplicationFailure } from '@temporalio/common';
import { AgentError } from '../contracts/errors.js';

export function toFailure(err: unknown): unknown {
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
