/**
 * The Temporal-only floor for the bench: a workflow that awaits one no-op activity per
 * step (no model, no git, no files), on the same server and worker settings as the run
 * workflow. Its per-step time is what a step cannot cost less than on this machine.
 */
import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';

export interface FloorActivities {
  floorNoop(step: number): Promise<number>;
}

export interface FloorInput {
  readonly steps: number;
  /** Route the activity to this queue (e.g. the worker's host queue); default the workflow's. */
  readonly taskQueue?: string;
  readonly local?: boolean;
}

const remote = proxyActivities<FloorActivities>({ startToCloseTimeout: '1 minute' });
const local = proxyLocalActivities<FloorActivities>({ startToCloseTimeout: '1 minute' });

/** Returns the number of steps done. */
export async function floorWorkflow(input: FloorInput): Promise<number> {
  let done = 0;
  for (let step = 0; step < input.steps; step += 1) {
    if (input.local) await local.floorNoop(step);
    else if (input.taskQueue !== undefined)
      await remote.floorNoop.executeWithOptions({ startToCloseTimeout: '1 minute', taskQueue: input.taskQueue }, [
        step,
      ]);
    else await remote.floorNoop(step);
    done += 1;
  }
  return done;
}
