/**
 * A retried activity tells the server to forget its workflow's sticky queue before it runs.
 *
 * Why (issue 29, measured by the bench's `long` phase): a worker killed mid-step leaves the
 * run's workflow pinned to that worker's sticky queue. The step is retried on a new worker,
 * and when it completes, the server puts the workflow task that acts on it on the dead
 * worker's sticky queue, unless that queue has had no poller for 10 s. So whenever the
 * retry finishes within ~10 s of the kill (a short heartbeat timeout, a fast new worker),
 * the run waited the whole sticky schedule-to-start timeout (10 s) before the next step:
 * 13.6 s from the replacement's spawn to the next step, of which 10.8 s after the retried
 * step's own model call. Whether a resume paid it depended on timing, not on the run.
 *
 * An activity's attempt > 1 means its previous attempt failed or its worker died; we cannot
 * tell which, so every retry resets (ResetStickyTaskQueue: the next workflow task goes to
 * the normal queue). The price when the old worker was alive: one replay of the run's
 * history on the next workflow task, bounded by continue-as-new (500 events) and paid only
 * after a retry, whose backoff is seconds anyway. A failed reset is logged and the attempt
 * runs regardless (the run then waits the sticky timeout out, as before).
 */
import type { Context as ActivityContext } from '@temporalio/activity';
import type { NativeConnection } from '@temporalio/worker';
import type { ActivityInboundCallsInterceptor, ActivityInterceptorsFactory } from '@temporalio/worker';

/** How long a retry waits for the reset before it runs anyway. */
export const STICKY_RESET_TIMEOUT_MS = 2000;

export interface WorkflowExecutionRef {
  readonly workflowId: string;
  readonly runId: string;
}

/** The port: clear the sticky queue of one workflow execution (the server's ResetStickyTaskQueue). */
export type ResetStickyQueue = (execution: WorkflowExecutionRef) => Promise<void>;

export function resetStickyQueueOf(connection: NativeConnection, namespace: string): ResetStickyQueue {
  return async (execution) => {
    await connection.workflowService.resetStickyTaskQueue({
      namespace,
      execution: { workflowId: execution.workflowId, runId: execution.runId },
    });
  };
}

async function resetWithin(reset: ResetStickyQueue, execution: WorkflowExecutionRef, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    await Promise.race([reset(execution), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The inbound interceptor of one activity call: resets first when this is a retry. */
export function stickyResetInbound(
  ctx: Pick<ActivityContext, 'info' | 'log'>,
  reset: ResetStickyQueue,
  timeoutMs = STICKY_RESET_TIMEOUT_MS,
): ActivityInboundCallsInterceptor {
  return {
    async execute(input, next) {
      const { attempt, workflowExecution, activityType } = ctx.info;
      if (attempt > 1 && workflowExecution !== undefined) {
        try {
          await resetWithin(reset, workflowExecution, timeoutMs);
        } catch (err) {
          ctx.log.warn('could not reset the workflow sticky queue before a retry; the run may wait for it', {
            activityType,
            attempt,
            error: err instanceof Error ? err.message : String(err),
          });
        }
      }
      return next(input);
    },
  };
}

/** For Worker.create's `interceptors.activity`. */
export function stickyResetInterceptor(reset: ResetStickyQueue): ActivityInterceptorsFactory {
  return (ctx) => ({ inbound: stickyResetInbound(ctx, reset) });
}
