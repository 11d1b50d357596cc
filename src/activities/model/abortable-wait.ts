/** Abortable waiting for the model-rate governor: a waiter leaves as soon as its step is cancelled. */
import { setTimeout as sleepTimer } from 'node:timers/promises';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';

export function abortReason(signal: AbortSignal): unknown {
  return (
    signal.reason ??
    new AgentError(FailureType.Aborted, 'waiting for the model rate limit was aborted', { retryable: true })
  );
}

export async function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  try {
    await sleepTimer(ms, undefined, signal ? { signal } : {});
  } catch (err) {
    if (signal?.aborted) throw abortReason(signal);
    throw err;
  }
}

/** Rejects as soon as the signal aborts; otherwise follows `promise`. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
