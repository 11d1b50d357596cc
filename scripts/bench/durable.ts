/**
 * Durable runs for the bench: start the run workflow, wait for its result (bounded),
 * and read its history (per-step timings from event times, history size).
 */
import { type Client, type WorkflowHandle } from '@temporalio/client';
import { tsToMs } from '@temporalio/common';
import proto from '@temporalio/proto';
import type { RunInput, RunResult } from '../../src/contracts/run.js';
import { runAgentWorkflow } from '../../src/workflows/run-agent.js';

const EventType = proto.temporal.api.enums.v1.EventType;

export interface DurableRun {
  readonly workflowId: string;
  readonly result: RunResult;
  readonly wallMs: number;
  readonly handle: WorkflowHandle<typeof runAgentWorkflow>;
}

export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${Math.round(ms / 1000)} s: ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function startRun(
  client: Client,
  taskQueue: string,
  workflowId: string,
  input: RunInput,
): Promise<WorkflowHandle<typeof runAgentWorkflow>> {
  return client.workflow.start(runAgentWorkflow, {
    taskQueue,
    workflowId,
    args: [input],
    workflowExecutionTimeout: '15 minutes',
  });
}

export async function durableRun(
  client: Client,
  taskQueue: string,
  workflowId: string,
  input: RunInput,
  timeoutMs: number,
): Promise<DurableRun> {
  const started = performance.now();
  const handle = await startRun(client, taskQueue, workflowId, input);
  const result = await withTimeout(handle.result(), timeoutMs, `run ${workflowId}`);
  return { workflowId, result, wallMs: performance.now() - started, handle };
}

export interface HistoryFacts {
  readonly events: number;
  readonly bytes: number;
  /** Server time (ms) of each completed queryStep activity, in order. */
  readonly stepEnds: readonly number[];
  /** Completed activities by type. */
  readonly activities: Readonly<Record<string, number>>;
  /** Server time (ms) of the first event (the run's start) and of the last (its close). */
  readonly startedAt: number;
  readonly closedAt: number;
}

export async function historyFacts(handle: WorkflowHandle): Promise<HistoryFacts> {
  const [history, description] = await Promise.all([handle.fetchHistory(), handle.describe()]);
  const types = new Map<string, string>();
  const stepEnds: number[] = [];
  const activities: Record<string, number> = {};
  for (const event of history.events ?? []) {
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled) types.set(String(event.eventId), scheduled.activityType?.name ?? '?');
    const completed = event.activityTaskCompletedEventAttributes;
    if (completed) {
      const type = types.get(String(completed.scheduledEventId)) ?? '?';
      activities[type] = (activities[type] ?? 0) + 1;
      if (type === 'queryStep') stepEnds.push(tsToMs(event.eventTime));
    }
  }
  const raw = description.raw.workflowExecutionInfo;
  const bytes = Number(raw?.historySizeBytes ?? 0);
  const events = history.events ?? [];
  const at = (i: number): number => (events[i] === undefined ? 0 : tsToMs(events[i]!.eventTime));
  return {
    events: Number(raw?.historyLength ?? events.length),
    bytes,
    stepEnds,
    activities,
    startedAt: at(0),
    closedAt: at(events.length - 1),
  };
}

export function intervals(times: readonly number[]): number[] {
  return times.slice(1).map((t, i) => t - times[i]!);
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface TimeBreakdown {
  /** Sums over the run, in ms. */
  readonly activityQueueMs: number;
  readonly activityExecMs: number;
  readonly workflowTaskQueueMs: number;
  readonly workflowTaskExecMs: number;
  readonly activities: number;
  readonly workflowTasks: number;
  readonly events: number;
  /** Event counts by type (e.g. MARKER_RECORDED, UPSERT_WORKFLOW_SEARCH_ATTRIBUTES). */
  readonly byEventType: Readonly<Record<string, number>>;
  readonly byActivity: Readonly<Record<string, { count: number; queueMs: number; execMs: number }>>;
}

/** Where a run's time went, from its history's event times. */
export async function timeBreakdown(handle: WorkflowHandle): Promise<TimeBreakdown> {
  const history = await handle.fetchHistory();
  const at = new Map<string, number>();
  const typeOf = new Map<string, string>();
  const out = {
    activityQueueMs: 0,
    activityExecMs: 0,
    workflowTaskQueueMs: 0,
    workflowTaskExecMs: 0,
    activities: 0,
    workflowTasks: 0,
  };
  const byActivity: Record<string, { count: number; queueMs: number; execMs: number }> = {};
  const byEventType: Record<string, number> = {};
  for (const e of history.events ?? []) {
    const id = String(e.eventId);
    const typeName = String(EventType[e.eventType ?? 0] ?? e.eventType).replace(/^EVENT_TYPE_/, '');
    byEventType[typeName] = (byEventType[typeName] ?? 0) + 1;
    const t = tsToMs(e.eventTime);
    at.set(id, t);
    if (e.activityTaskScheduledEventAttributes)
      typeOf.set(id, e.activityTaskScheduledEventAttributes.activityType?.name ?? '?');
    const started = e.activityTaskStartedEventAttributes;
    if (started) {
      const q = t - (at.get(String(started.scheduledEventId)) ?? t);
      out.activityQueueMs += q;
      const type = typeOf.get(String(started.scheduledEventId)) ?? '?';
      (byActivity[type] ??= { count: 0, queueMs: 0, execMs: 0 }).queueMs += q;
    }
    const completed = e.activityTaskCompletedEventAttributes;
    if (completed) {
      const x = t - (at.get(String(completed.startedEventId)) ?? t);
      out.activityExecMs += x;
      out.activities += 1;
      const type = typeOf.get(String(completed.scheduledEventId)) ?? '?';
      const b = (byActivity[type] ??= { count: 0, queueMs: 0, execMs: 0 });
      b.execMs += x;
      b.count += 1;
    }
    const wftStarted = e.workflowTaskStartedEventAttributes;
    if (wftStarted) out.workflowTaskQueueMs += t - (at.get(String(wftStarted.scheduledEventId)) ?? t);
    const wftCompleted = e.workflowTaskCompletedEventAttributes;
    if (wftCompleted) {
      out.workflowTaskExecMs += t - (at.get(String(wftCompleted.startedEventId)) ?? t);
      out.workflowTasks += 1;
    }
  }
  return { ...out, events: history.events?.length ?? 0, byEventType, byActivity };
}
