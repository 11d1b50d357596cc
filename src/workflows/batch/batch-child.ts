/**
 * Runs one issue of a batch as a child run, or attaches to the issue's live run when
 * one already holds its Workflow ID, and says how it ended. A child's failure is a
 * row in the batch's table, never the batch's failure.
 *
 * Decisions:
 * - parentClosePolicy ABANDON: a child is a full, independently resumable run that
 *   operators manage by its own Workflow ID; terminating or resetting the batch must not
 *   destroy agent work in progress (worktrees, spend). A graceful stop is the batch's
 *   `cancel` signal, which forwards `cancel` to the running children.
 * - An issue whose run ID is already running (started by start-run, or
 *   abandoned by an earlier batch) is attached to, never duplicated: starting the child
 *   fails with WorkflowExecutionAlreadyStarted and an activity waits for that run.
 *   Closed runs of the same ID do not block (ALLOW_DUPLICATE): the selection (open,
 *   labelled ready) is what decides that an issue needs work.
 */
import {
  ApplicationFailure,
  ChildWorkflowFailure,
  CancelledFailure,
  ParentClosePolicy,
  TerminatedFailure,
  TimeoutFailure,
  WorkflowIdReusePolicy,
  getExternalWorkflowHandle,
  isCancellation,
  log,
  startChild,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { BatchInput, BatchIssueProgress, BatchIssueRef } from '../../contracts/batch.js';
import { FailureType } from '../../contracts/failures.js';
import type { RunInput, RunResult } from '../../contracts/run.js';
import { runResultOf } from '../../contracts/run-end.js';
import type { RunAgentWorkflow } from '../run/run-agent-signature.js';
import { failureInfo } from '../run/failure-info.js';
import { cancelSignal } from '../run/messages.js';
import { RepoIdKey } from '../run/search-attributes.js';
import { awaitActivities, labelActivities } from './batch-proxies.js';
import type { LabelMove } from './label-moves.js';

export type RunEnd =
  | { kind: 'result'; result: RunResult }
  | { kind: 'error'; outcome: 'failed' | 'cancelled'; code?: FailureType | undefined; reason: string };

export async function runIssueChild(
  input: BatchInput,
  ref: BatchIssueRef,
  id: string,
  onRunning: () => void,
): Promise<RunEnd & { attached: boolean }> {
  const runInput: RunInput = {
    issue: ref.number,
    agentDir: input.agentDir,
    repoPath: input.repoPath,
    issueSource: input.issueSource,
    ...(input.delivery ? { delivery: input.delivery } : {}),
    artifactsDir: input.artifactsDir,
    ...(input.budget ? { budget: input.budget } : {}),
    ...(input.maxIterations === undefined ? {} : { maxIterations: input.maxIterations }),
    ...(input.tuning ? { tuning: input.tuning } : {}),
    ...(input.answerTimeoutMs === undefined ? {} : { answerTimeoutMs: input.answerTimeoutMs }),
    ...(input.setup ? { setup: input.setup } : {}),
    ...(input.planApproval === undefined ? {} : { planApproval: input.planApproval }),
    ...(input.overrides ? { overrides: input.overrides } : {}),
    ...(input.repoInstructions ? { repoInstructions: input.repoInstructions } : {}),
  };
  try {
    const child = await startChild<RunAgentWorkflow>('runAgentWorkflow', {
      workflowId: id,
      args: [runInput],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
      staticSummary: `Issue #${ref.number}: ${ref.title}`.slice(0, 200),
      ...(input.repoId === undefined ? {} : { typedSearchAttributes: [{ key: RepoIdKey, value: input.repoId }] }),
    });
    onRunning();
    return { kind: 'result', result: await child.result(), attached: false };
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) {
      log.info('attaching to the live run of the issue', { workflowId: id });
      onRunning();
      const out = await awaitActivities.awaitRun.executeWithOptions({ summary: `attach · ${id}` }, [
        { workflowId: id },
      ]);
      if (out.status === 'completed' && out.result) return { kind: 'result', result: out.result, attached: true };
      const outcome = out.status === 'cancelled' ? 'cancelled' : 'failed';
      return {
        kind: 'error',
        outcome,
        code: FailureType.Aborted,
        reason: `the live run ${id} ended ${out.status}: ${out.reason ?? ''}`.trim(),
        attached: true,
      };
    }
    if (err instanceof ChildWorkflowFailure) {
      const cause = err.cause;
      // A run that failed or was cancelled carries its result (contracts/run-end.ts).
      const ended =
        cause instanceof ApplicationFailure || cause instanceof CancelledFailure
          ? runResultOf(cause.details ?? [])
          : undefined;
      if (ended) return { kind: 'result', result: ended, attached: false };
      if (cause instanceof CancelledFailure)
        return { kind: 'error', outcome: 'cancelled', reason: `run ${id} was cancelled`, attached: false };
      const how =
        cause instanceof TerminatedFailure ? 'terminated' : cause instanceof TimeoutFailure ? 'timed out' : 'failed';
      const info = failureInfo(cause);
      return {
        kind: 'error',
        outcome: 'failed',
        code: info.type ?? FailureType.Aborted,
        reason: `run ${id} ${how}: ${info.message}`,
        attached: false,
      };
    }
    throw err;
  }
}

/** Moves an issue's labels; a failure is returned as text for the issue's row, never thrown. */
export async function moveIssueLabels(
  input: BatchInput,
  issue: number,
  move: LabelMove,
): Promise<{ labels?: readonly string[]; error?: string }> {
  try {
    const after = await labelActivities.relabelIssue({
      repoPath: input.repoPath,
      issueSource: input.issueSource,
      issue,
      add: move.add,
      remove: move.remove,
    });
    return { labels: after };
  } catch (err) {
    if (isCancellation(err)) throw err;
    return { error: failureInfo(err).message };
  }
}

/** Forwards the batch's cancel to its running children (each ends as its own run would). */
export async function forwardCancel(running: readonly BatchIssueProgress[], reason: string): Promise<void> {
  for (const child of running) {
    await getExternalWorkflowHandle(child.workflowId)
      .signal(cancelSignal, { reason })
      .catch((err: unknown) =>
        log.warn('could not forward cancel', { workflowId: child.workflowId, error: failureInfo(err).message }),
      );
  }
}
