/**
 * What the `long` phase's resumes had to work with, read from the chain's histories: the
 * parts of a resume that could grow with the run's length. For each kill (the run of the
 * chain that holds the step retried after it): how many events a worker that never saw
 * the run replayed before the retried step's completion, and the size of that run's start
 * input (for a continued run: the carried state, CarriedRun). Over the whole chain: the
 * workflow tasks that timed out on a sticky queue (a dead worker's: what a resume waited
 * out before src/worker/sticky-reset.ts), each run's start input.
 */
import type { Client } from '@temporalio/client';
import { tsToMs } from '@temporalio/common';
import proto from '@temporalio/proto';

const TimeoutType = proto.temporal.api.enums.v1.TimeoutType;

export interface ResumeFacts {
  /** Per retried step, in chain order: events before its completion, and its run's start input (bytes). */
  readonly resumes: ReadonlyArray<{
    readonly replayEvents: number;
    readonly inputBytes: number;
    /** The workflow task after the retried step: scheduled → started (queue), started → completed (the replay). */
    readonly taskQueueMs: number;
    readonly replayTaskMs: number;
  }>;
  /** Workflow tasks of the chain that timed out before a worker started them (sticky queue of a dead worker). */
  readonly stickyTimeouts: number;
  /** The start input of each run of the chain, bytes (after the first: the carried state). */
  readonly inputBytes: readonly number[];
}

function inputBytes(payloads: ReadonlyArray<{ readonly data?: Uint8Array | null }> | null | undefined): number {
  return (payloads ?? []).reduce((sum, p) => sum + (p.data?.length ?? 0), 0);
}

/** Reads the runs of the chain (oldest first, as `runIds` lists them). */
export async function resumeFacts(client: Client, workflowId: string, runIds: readonly string[]): Promise<ResumeFacts> {
  const resumes: Array<ResumeFacts['resumes'][number]> = [];
  let stickyTimeouts = 0;
  const inputs: number[] = [];
  for (const runId of runIds) {
    const events = (await client.workflow.getHandle(workflowId, runId).fetchHistory()).events ?? [];
    const bytes = inputBytes(events[0]?.workflowExecutionStartedEventAttributes?.input?.payloads);
    inputs.push(bytes);
    for (const [i, event] of events.entries()) {
      const timedOut = event.workflowTaskTimedOutEventAttributes;
      if (timedOut && timedOut.timeoutType === TimeoutType.TIMEOUT_TYPE_SCHEDULE_TO_START) stickyTimeouts += 1;
      // A retried attempt's started event is written when it completes, just before its completion.
      if ((event.activityTaskStartedEventAttributes?.attempt ?? 1) > 1) {
        const after = events.slice(i);
        const at = (has: (e: (typeof events)[number]) => unknown): number => {
          const found = after.find((e) => has(e));
          return found?.eventTime ? tsToMs(found.eventTime) : Number.NaN;
        };
        const scheduled = at((e) => e.workflowTaskScheduledEventAttributes);
        const started = at((e) => e.workflowTaskStartedEventAttributes);
        const completed = at((e) => e.workflowTaskCompletedEventAttributes);
        resumes.push({
          replayEvents: Number(event.eventId),
          inputBytes: bytes,
          taskQueueMs: started - scheduled,
          replayTaskMs: completed - started,
        });
      }
    }
  }
  return { resumes, stickyTimeouts, inputBytes: inputs };
}
