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

export function startHeartbeat(intervalMs = 5000): HeartbeatHandle {
  const context = Context.current();
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
    stop: () => clearInterval(timer),
  };
}

export async function withHeartbeat<R>(fn: (hb: HeartbeatHandle) => Promise<R>, intervalMs?: number): Promise<R> {
  const hb = startHeartbeat(intervalMs);
  try {
    return await fn(hb);
  } finally {
    hb.stop();
  }
}
