/**
 * Waiting for a workflow to be parked: it waits for something from outside (a signal, an
 * update, a timer) and has nothing of its own in flight: no pending activity or child, no
 * workflow task scheduled or running after its last completed one. What a test awaits
 * before asserting that something did NOT happen (nothing dispatched while paused, no
 * model request while waiting): once parked, whatever the run would have done next has
 * been given as a command and is in its history. Never a fixed sleep.
 */
import assert from 'node:assert/strict';
import type { WorkflowHandle } from '@temporalio/client';
import { until } from './until.js';

/** Resolves once the workflow of `handle` is parked; fails at once if it has ended. */
export async function untilParked(handle: WorkflowHandle, what: string, ms = 60_000): Promise<void> {
  await until(
    `${what}: the workflow parked`,
    async () => {
      const described = await handle.describe();
      assert.equal(described.status.name, 'RUNNING', `${what}: the workflow ended instead of parking`);
      const pending = (described.raw.pendingActivities?.length ?? 0) + (described.raw.pendingChildren?.length ?? 0);
      if (pending > 0) return undefined;
      const events = (await handle.fetchHistory()).events ?? [];
      let last = events.length - 1;
      while (last >= 0 && events[last]?.workflowTaskCompletedEventAttributes == null) last -= 1;
      if (last < 0) return undefined;
      const taskAfter = events
        .slice(last + 1)
        .some(
          (e) =>
            e.workflowTaskScheduledEventAttributes != null ||
            e.workflowTaskStartedEventAttributes != null ||
            e.activityTaskScheduledEventAttributes != null ||
            e.startChildWorkflowExecutionInitiatedEventAttributes != null,
        );
      return taskAfter ? undefined : true;
    },
    ms,
    100,
  );
}
