/**
 * Heartbeats for long activities. Besides the heartbeats an activity sends itself
 * (per model turn), a timer re-sends the latest details every few seconds: a long
 * tool command then still proves the worker alive, and cancellation (which Temporal
 * delivers only on a heartbeat) arrives promptly.
 */
import { Context } from '@temporalio/activity';

export interface HeartbeatHandle {
  /** Records details and heartbeats them now. */
  beat(details?: unknown): void;
  /** The previous attempt's last details, if this is a retry. */
  readonly previous: unknown;
  readonly signal: AbortSignal;
  stop(): void;
}

/** Often enough that a slow stretch never looks like a dead worker: a third of the timeout, at most 5 s. */
export function heartbeatIntervalMs(heartbeatTimeoutMs: number | undefined, ceilingMs = 5000): number {
  if (heartbeatTimeoutMs === undefined || heartbeatTimeoutMs <= 0) return ceilingMs;
  return Math.max(100, Math.min(ceilingMs, Math.floor(heartbeatTimeoutMs / 3)));
}

export function startHeartbeat(): HeartbeatHandle & { readonly intervalMs: number } {
  const context = Context.current();
  const intervalMs = heartbeatIntervalMs(context.info.heartbeatTimeoutMs);
  let latest: unknown = undefined;
  const timer = setInterval(() => context.heartbeat(latest), intervalMs);
  timer.unref();
  return {
    beat(details?: unknown) {
      if (details !== undefined) latest = details;
      context.heartbeat(latest);
    },
    previous: context.info.heartbeatDetails,
    signal: context.cancellationSignal,
    intervalMs,
    stop: () => clearInterval(timer),
  };
}

export async function withHeartbeat<R>(
  fn: (hb: HeartbeatHandle & { readonly intervalMs: number }) => Promise<R>,
): Promise<R> {
  const hb = startHeartbeat();
  try {
    return await fn(hb);
  } finally {
    hb.stop();
  }
}
