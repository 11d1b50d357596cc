/**
 * A worker that meets `BadSearchAttributes` never leaves a run hanging. The server rejects
 * a workflow task that sets an attribute the namespace lacks and schedules it again, for
 * good: the run stays RUNNING at its first upsert while the worker logs the rejection in
 * a loop. The worker checks the attributes at start (create-run-worker.ts), but they can
 * be removed later, or a run may set one we do not know.
 *
 * On such a log line (the SDK core's, forwarded to our logger) the guard repairs once
 * (debounced): it registers what is missing, and the runs retry their task and go on;
 * where registration is refused or nothing of ours is missing, it terminates the runs of
 * its task queue whose workflow task keeps failing for that cause, with the server's
 * reason and the exact fix as the termination reason, so `start-run`/`status` show it.
 */
import {
  ensureSearchAttributes,
  type SearchAttributeOperator,
  type ServerCoordinates,
} from '../host/temporal/search-attributes-check.js';

/** WORKFLOW_TASK_FAILED_CAUSE_BAD_SEARCH_ATTRIBUTES (temporal.api.enums.v1). */
const BAD_SEARCH_ATTRIBUTES = 23;

export interface StuckRun {
  readonly workflowId: string;
  readonly runId: string;
  /** The server's message: `BadSearchAttributes: Namespace … has no mapping defined for search attribute …`. */
  readonly failure: string;
}

export interface GuardPorts {
  readonly operator: SearchAttributeOperator;
  /** Running workflows of the queue whose workflow task failed last for BadSearchAttributes. */
  stuckRuns(): Promise<StuckRun[]>;
  terminate(run: StuckRun, reason: string): Promise<void>;
}

export interface BadSearchAttributesGuard {
  /** Called with every log line of the worker's runtime. */
  notice(text: string): void;
  /** The repair in progress, if any (tests await it). */
  idle(): Promise<void>;
}

export function isBadSearchAttributesLog(text: string): boolean {
  return text.includes('BadSearchAttributes');
}

export function badSearchAttributesGuard(
  ports: GuardPorts,
  at: ServerCoordinates,
  write: (line: string) => void,
  options: { quietMs?: number } = {},
): BadSearchAttributesGuard {
  let running: Promise<void> | undefined;
  let lastRepair = 0;
  const quietMs = options.quietMs ?? 10_000;

  async function repair(): Promise<void> {
    let fix: string;
    try {
      const { registered } = await ensureSearchAttributes(ports.operator, at);
      if (registered.length > 0) {
        write(
          `registered search attributes ${registered.join(', ')} on namespace ${at.namespace} at ${at.address}: the runs that failed to set them retry`,
        );
        return;
      }
      fix = `namespace ${at.namespace} has every search attribute issue-agent sets; the run set another one or a value of the wrong type`;
    } catch (err) {
      fix = err instanceof Error ? err.message : String(err);
    }
    for (const run of await ports.stuckRuns()) {
      await ports.terminate(run, `${run.failure}. ${fix}`);
      write(`terminated ${run.workflowId}: its workflow task kept failing (${run.failure}); the fix: ${fix}`);
    }
  }

  return {
    notice(text) {
      if (!isBadSearchAttributesLog(text) || running !== undefined) return;
      if (Date.now() - lastRepair < quietMs) return;
      lastRepair = Date.now();
      running = repair()
        .catch((err: unknown) => write(`could not repair BadSearchAttributes: ${String(err)}`))
        .finally(() => {
          running = undefined;
        });
    },
    idle: () => running ?? Promise.resolve(),
  };
}

/** What the guard's ports need of a connection (the worker's NativeConnection has it). */
interface WorkflowServiceLike {
  listWorkflowExecutions(request: { namespace: string; query: string; pageSize?: number }): Promise<{
    executions?: Array<{ execution?: { workflowId?: string | null; runId?: string | null } | null }> | null;
  }>;
  describeWorkflowExecution(request: {
    namespace: string;
    execution: { workflowId: string; runId: string };
  }): Promise<{ pendingWorkflowTask?: { attempt?: number | null } | null }>;
  getWorkflowExecutionHistoryReverse(request: {
    namespace: string;
    execution: { workflowId: string; runId: string };
    maximumPageSize?: number;
  }): Promise<{
    history?: {
      events?: Array<{
        workflowTaskFailedEventAttributes?: {
          cause?: unknown;
          failure?: { message?: string | null } | null;
        } | null;
      }> | null;
    } | null;
  }>;
  terminateWorkflowExecution(request: {
    namespace: string;
    workflowExecution: { workflowId: string; runId: string };
    reason: string;
    identity?: string;
  }): Promise<unknown>;
}

/** The ports on a real connection: stuck runs are those of `taskQueue` with a repeated failing task. */
export function guardPortsOf(
  connection: { operatorService: SearchAttributeOperator; workflowService: unknown },
  namespace: string,
  taskQueue: string,
): GuardPorts {
  const service = connection.workflowService as WorkflowServiceLike;
  return {
    operator: connection.operatorService,
    async stuckRuns() {
      const query = `TaskQueue = ${JSON.stringify(taskQueue)} AND ExecutionStatus = "Running"`;
      const { executions } = await service.listWorkflowExecutions({ namespace, query, pageSize: 1000 });
      const stuck: StuckRun[] = [];
      for (const e of executions ?? []) {
        const execution = { workflowId: e.execution?.workflowId ?? '', runId: e.execution?.runId ?? '' };
        if (execution.workflowId === '') continue;
        const { pendingWorkflowTask } = await service.describeWorkflowExecution({ namespace, execution });
        if ((pendingWorkflowTask?.attempt ?? 0) < 2) continue;
        const { history } = await service.getWorkflowExecutionHistoryReverse({
          namespace,
          execution,
          maximumPageSize: 20,
        });
        const failed = (history?.events ?? []).find(
          (ev) => ev.workflowTaskFailedEventAttributes,
        )?.workflowTaskFailedEventAttributes;
        const cause = failed?.cause;
        if (cause !== BAD_SEARCH_ATTRIBUTES && cause !== 'WORKFLOW_TASK_FAILED_CAUSE_BAD_SEARCH_ATTRIBUTES') continue;
        stuck.push({ ...execution, failure: failed?.failure?.message ?? 'BadSearchAttributes' });
      }
      return stuck;
    },
    async terminate(run, reason) {
      await service.terminateWorkflowExecution({
        namespace,
        workflowExecution: { workflowId: run.workflowId, runId: run.runId },
        reason,
        identity: 'issue-agent worker (BadSearchAttributes guard)',
      });
    },
  };
}
