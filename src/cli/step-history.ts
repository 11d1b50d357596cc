/**
 * The completed steps of a run, read from its Temporal history: for each step activity
 * (the model step `queryStep`, the runner step `runStepRunner`) that completed, its
 * ordinal, step id, worktree checkpoint and the reset point right after it, the first
 * WorkflowTaskCompleted event after its completion. Resetting there keeps steps 1..K in
 * history and re-runs the workflow task that routes to step K+1 (`reset --to-step K`).
 */
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { isJsonObject, type JsonObject } from '../contracts/json.js';
import { stepOfCheckpointRef } from '../contracts/worktree-checkpoint.js';

interface Payloads {
  readonly payloads?: readonly Payload[] | null;
}

/** The parts of a history event read here (structurally a temporal.api.history.v1.IHistoryEvent). */
export interface HistoryEventLike {
  readonly eventId?: unknown;
  readonly activityTaskScheduledEventAttributes?: {
    readonly activityType?: { readonly name?: string | null } | null;
    readonly input?: Payloads | null;
  } | null;
  readonly activityTaskCompletedEventAttributes?: {
    readonly scheduledEventId?: unknown;
    readonly result?: Payloads | null;
  } | null;
  readonly workflowTaskCompletedEventAttributes?: unknown;
}

export interface CompletedStep {
  /** The step's ordinal in the run (its iteration). */
  readonly step: number;
  readonly stepId: string;
  readonly checkpoint?: string;
  readonly completedEventId: number;
  /** The event to reset to; absent while the workflow has not processed the completion yet. */
  readonly resetEventId?: number;
  /** The same id as the history holds it (a Long), for the reset request. */
  readonly resetEventIdRaw?: unknown;
}

export interface StepHistory {
  readonly steps: readonly CompletedStep[];
  /** From the prepareWorkspace result. */
  readonly worktreePath?: string;
}

const STEP_ACTIVITIES: ReadonlySet<string> = new Set(['queryStep', 'runStepRunner']);

function idOf(raw: unknown): number {
  if (typeof raw === 'number') return raw;
  if (raw === null || raw === undefined) return Number.NaN;
  return Number(String(raw));
}

function firstPayload(payloads: Payloads | null | undefined): JsonObject | undefined {
  const first = payloads?.payloads?.[0];
  if (first === undefined) return undefined;
  try {
    const value: unknown = defaultPayloadConverter.fromPayload(first);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

interface Scheduled {
  readonly activity: string;
  readonly input: JsonObject;
}

function ordinalOf(scheduled: Scheduled): number | undefined {
  const checkpoint = scheduled.input['checkpoint'];
  const ref = isJsonObject(checkpoint) && typeof checkpoint['ref'] === 'string' ? checkpoint['ref'] : undefined;
  const fromRef = ref === undefined ? undefined : stepOfCheckpointRef(ref);
  if (fromRef !== undefined) return fromRef;
  const iteration = scheduled.input['iteration'];
  return typeof iteration === 'number' ? iteration : undefined;
}

export function stepHistory(events: readonly HistoryEventLike[]): StepHistory {
  const scheduled = new Map<number, Scheduled>();
  const steps: CompletedStep[] = [];
  let worktreePath: string | undefined;
  for (const event of events) {
    const id = idOf(event.eventId);
    const s = event.activityTaskScheduledEventAttributes;
    if (s) {
      const activity = s.activityType?.name ?? '';
      const input = firstPayload(s.input);
      if (input !== undefined) scheduled.set(id, { activity, input });
      continue;
    }
    const c = event.activityTaskCompletedEventAttributes;
    if (c) {
      const from = scheduled.get(idOf(c.scheduledEventId));
      const result = firstPayload(c.result);
      if (from?.activity === 'prepareWorkspace' && typeof result?.['worktreePath'] === 'string') {
        worktreePath = result['worktreePath'];
      }
      if (from === undefined || !STEP_ACTIVITIES.has(from.activity)) continue;
      const step = ordinalOf(from);
      if (step === undefined) continue;
      const checkpoint = result?.['worktreeCheckpoint'];
      steps.push({
        step,
        stepId: typeof from.input['stepId'] === 'string' ? from.input['stepId'] : '?',
        ...(typeof checkpoint === 'string' ? { checkpoint } : {}),
        completedEventId: id,
      });
      continue;
    }
    if (event.workflowTaskCompletedEventAttributes) {
      for (const [i, step] of steps.entries()) {
        if (step.resetEventId === undefined && step.completedEventId < id) {
          steps[i] = { ...step, resetEventId: id, resetEventIdRaw: event.eventId };
        }
      }
    }
  }
  return { steps, ...(worktreePath === undefined ? {} : { worktreePath }) };
}
