/**
 * Reads the typed cause out of an activity failure, so the workflow can switch on the
 * FailureType an activity threw (activities convert AgentErrors at their edge).
 */
import { ActivityFailure, ApplicationFailure, isCancellation } from '@temporalio/workflow';
import { asFailureType, type FailureType } from '../../contracts/failures.js';

export interface FailureInfo {
  /** The FailureType an activity threw; undefined for any other failure (its message says what). */
  readonly type?: FailureType | undefined;
  readonly message: string;
  readonly details: readonly unknown[];
  readonly cancelled: boolean;
}

export function failureInfo(err: unknown): FailureInfo {
  if (isCancellation(err)) return { message: 'cancelled', details: [], cancelled: true };
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure) {
    return { type: asFailureType(cause.type), message: cause.message, details: cause.details ?? [], cancelled: false };
  }
  const message = cause instanceof Error ? cause.message : String(cause);
  return { message, details: [], cancelled: false };
}

/**
 * `CODE: reason` once: an activity's failure message already starts with its code (the
 * edge sends AgentError.describe()), a workflow's own reason does not. PURE.
 */
export function codeAndReason(code: string, reason: string): string {
  return reason.startsWith(`${code}: `) ? reason : `${code}: ${reason}`;
}
