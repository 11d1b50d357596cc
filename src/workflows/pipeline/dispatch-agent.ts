/**
 * Dispatches a phase's agent as a child run (the run workflow, Workflow ID
 * `<repoId>/<agent>/issue-<n>` as start-run builds it) and says how it ended.
 *
 * - The child's input carries the agent's parameters with defaults applied (upstream
 *   dispatched without them [BUG]).
 * - A failed or cancelled run FAILS in Temporal but carries its RunResult in the failure
 *   details (contracts/run-end.ts): read from there, as the batch does.
 * - A run of that ID already live (start-run on the same issue and agent) is attached
 *   to and awaited, never duplicated; a closed one does not block (ALLOW_DUPLICATE: a
 *   validator may send the issue back to an agent that already ran).
 * - parentClosePolicy ABANDON: a child is a full run that operators manage by its own ID;
 *   the pipeline's `cancel` signal forwards `cancel` to it.
 */
import {
  ApplicationFailure,
  CancelledFailure,
  ChildWorkflowFailure,
  ParentClosePolicy,
  TerminatedFailure,
  TimeoutFailure,
  WorkflowIdReusePolicy,
  getExternalWorkflowHandle,
  log,
  startChild,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { PipelineInput, ResolvedPipelineAgent } from '../../contracts/pipeline-run.js';
import type { RunInput, RunResult } from '../../contracts/run.js';
import { runResultOf } from '../../contracts/run-end.js';
import type { RunAgentWorkflow } from '../run/run-agent-signature.js';
import { awaitActivities } from '../batch/batch-proxies.js';
import { failureInfo } from '../run/failure-info.js';
import { cancelSignal } from '../run/messages.js';
import { AgentNameKey, IssueNumberKey, RepoIdKey } from '../run/search-attributes.js';

export type ChildEnd =
  | { readonly kind: 'result'; readonly result: RunResult; readonly attached: boolean }
  | { readonly kind: 'error'; readonly cancelled: boolean; readonly reason: string };

/** Same scheme as start-run and the batch: `<repoId>/<agent>/issue-<n>` (or `<agent>-issue-<n>` without a repo id). */
export function childWorkflowId(repoId: string | undefined, agentName: string, issue: number): string {
  return repoId === undefined ? `${agentName}-issue-${issue}` : `${repoId}/${agentName}/issue-${issue}`;
}

export function childRunInput(input: PipelineInput, agent: ResolvedPipelineAgent): RunInput {
  return {
    issue: input.issue,
    agentDir: agent.agentDir,
    repoPath: input.repoPath,
    issueSource: input.issueSource,
    artifactsDir: input.artifactsDir,
    ...(input.delivery ? { delivery: input.delivery } : {}),
    ...(Object.keys(agent.parameters).length > 0 ? { parameters: agent.parameters } : {}),
    ...(input.budget ? { budget: input.budget } : {}),
    ...(input.maxIterations === undefined ? {} : { maxIterations: input.maxIterations }),
    ...(input.tuning ? { tuning: input.tuning } : {}),
    ...(input.overrides ? { overrides: input.overrides } : {}),
    ...(input.repoInstructions ? { repoInstructions: input.repoInstructions } : {}),
  };
}

export async function dispatchAgent(
  input: PipelineInput,
  agent: ResolvedPipelineAgent,
  id: string,
  summary: string,
): Promise<ChildEnd> {
  try {
    const child = await startChild<RunAgentWorkflow>('runAgentWorkflow', {
      workflowId: id,
      args: [childRunInput(input, agent)],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
      staticSummary: summary.slice(0, 200),
      typedSearchAttributes: [
        { key: AgentNameKey, value: agent.name },
        { key: IssueNumberKey, value: input.issue },
        ...(input.repoId === undefined ? [] : [{ key: RepoIdKey, value: input.repoId }]),
      ],
    });
    return { kind: 'result', result: await child.result(), attached: false };
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) {
      log.info('attaching to the live run of the agent', { workflowId: id });
      const out = await awaitActivities.awaitRun.executeWithOptions({ summary: `attach · ${id}` }, [
        { workflowId: id },
      ]);
      if (out.status === 'completed' && out.result) return { kind: 'result', result: out.result, attached: true };
      return {
        kind: 'error',
        cancelled: out.status === 'cancelled',
        reason: `the live run ${id} ended ${out.status}: ${out.reason ?? ''}`.trim(),
      };
    }
    if (err instanceof ChildWorkflowFailure) {
      const cause = err.cause;
      const ended =
        cause instanceof ApplicationFailure || cause instanceof CancelledFailure
          ? runResultOf(cause.details ?? [])
          : undefined;
      if (ended) return { kind: 'result', result: ended, attached: false };
      if (cause instanceof CancelledFailure)
        return { kind: 'error', cancelled: true, reason: `run ${id} was cancelled` };
      const how =
        cause instanceof TerminatedFailure ? 'terminated' : cause instanceof TimeoutFailure ? 'timed out' : 'failed';
      return { kind: 'error', cancelled: false, reason: `run ${id} ${how}: ${failureInfo(cause).message}` };
    }
    throw err;
  }
}

/** Forwards the pipeline's cancel to its child run in flight (it ends as a cancelled run would). */
export async function forwardCancel(childId: string, reason: string): Promise<void> {
  await getExternalWorkflowHandle(childId)
    .signal(cancelSignal, { reason })
    .catch((err: unknown) =>
      log.warn('could not forward cancel', { workflowId: childId, error: failureInfo(err).message }),
    );
}
