/**
 * Round trips in a run's history, counted rather than timed: on a busy machine wall-clock
 * ratios move by a factor of two between runs, these counts never do. A round trip is a
 * task the server hands to a worker and waits for: a workflow task or an activity task.
 * A local activity is not one (it runs inside the workflow task that asks for it and lands
 * as a marker), so it is counted apart.
 *
 * Per step is the steady state: the tasks between the first and the last completed
 * `queryStep`, over the steps in between; fixed is what the run has besides steps ×
 * that (the start, the environment phase, validators, delivery).
 */
import proto from '@temporalio/proto';

const EventType = proto.temporal.api.enums.v1.EventType;

type HistoryEvent = proto.temporal.api.history.v1.IHistoryEvent;

export interface RoundTrips {
  readonly workflowTasks: number;
  readonly activityTasks: number;
  readonly localActivities: number;
  /** Activity tasks by activity type (a retried attempt is not a new task in history). */
  readonly activitiesByType: Readonly<Record<string, number>>;
  /** Workflow and activity tasks per step, steady state. */
  readonly perStep: number;
  /** All round trips of the run. */
  readonly perRun: number;
  /** perRun − steps × perStep. */
  readonly fixed: number;
}

const STEP_ACTIVITY = 'queryStep';
const LOCAL_ACTIVITY_MARKER = 'core_local_activity';

export function countRoundTrips(events: readonly HistoryEvent[], steps: number): RoundTrips {
  const activitiesByType: Record<string, number> = {};
  const typeOf = new Map<string, string>();
  let workflowTasks = 0;
  let activityTasks = 0;
  let localActivities = 0;
  // Task counts at each completed step, to difference the first and the last.
  const atStepEnd: number[] = [];
  for (const e of events) {
    switch (e.eventType) {
      case EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
        workflowTasks += 1;
        break;
      case EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED: {
        const type = e.activityTaskScheduledEventAttributes?.activityType?.name ?? '?';
        typeOf.set(String(e.eventId), type);
        activitiesByType[type] = (activitiesByType[type] ?? 0) + 1;
        activityTasks += 1;
        break;
      }
      case EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
        if (typeOf.get(String(e.activityTaskCompletedEventAttributes?.scheduledEventId)) === STEP_ACTIVITY)
          atStepEnd.push(workflowTasks + activityTasks);
        break;
      case EventType.EVENT_TYPE_MARKER_RECORDED:
        if (e.markerRecordedEventAttributes?.markerName === LOCAL_ACTIVITY_MARKER) localActivities += 1;
        break;
      default:
        break;
    }
  }
  const perRun = workflowTasks + activityTasks;
  const first = atStepEnd[0];
  const last = atStepEnd[atStepEnd.length - 1];
  const perStep =
    first === undefined || last === undefined || atStepEnd.length < 2 ? 0 : (last - first) / (atStepEnd.length - 1);
  return {
    workflowTasks,
    activityTasks,
    localActivities,
    activitiesByType,
    perStep: Math.round(perStep * 100) / 100,
    perRun,
    fixed: Math.round((perRun - steps * perStep) * 100) / 100,
  };
}
