/**
 * `reset --to-step K`: sends the run of an issue back to right after its step K. It finds
 * step K's completion in the run's history and asks Temporal to reset the run to the
 * first WorkflowTaskCompleted after it (ResetWorkflowExecution): steps 1..K stay in
 * history, step K+1 runs next, and that step's activity first restores the worktree to
 * step K's checkpoint (activities/workspace/checkpoints). Works on a live, failed or
 * completed run as long as its worktree (and so its checkpoints) still exists.
 * Signals sent after step K are not re-applied: the new run goes on from step K as it was.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { AgentError, UsageError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import { checkpointExists } from '../../activities/workspace/checkpoints/restore-checkpoint.js';
import { stepHistory, type CompletedStep } from '../step-history.js';
import { livePollers, type CliTemporal } from '../../host/temporal/temporal-client.js';
import { workflowUrl } from '../../host/temporal/ensure-temporal.js';
import { optionalString, requireIssue, type ParsedFlags } from '../flags/parse-flags.js';
import { commandFlags } from '../flags/command-specs.js';
import { withRun } from './run-control.js';
import { printLine } from '../../host/terminal-text.js';

const RESET_REAPPLY_TYPE_NONE = 2;

function requireStep(flags: ParsedFlags): number {
  const raw = flags['to-step'];
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (!/^[1-9][0-9]*$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(
      raw === undefined
        ? '--to-step is required (a step number, e.g. --to-step 2)'
        : `--to-step must be a positive integer, got "${text}"`,
      '--to-step',
    );
  }
  return Number(text);
}

function listSteps(steps: readonly CompletedStep[]): string {
  return steps.length === 0 ? 'none' : steps.map((s) => `${s.step} (${s.stepId})`).join(', ');
}

async function checkWorktree(
  workflowId: string,
  step: CompletedStep,
  worktreePath: string | undefined,
): Promise<string> {
  if (step.checkpoint === undefined) {
    throw new AgentError(
      FailureType.WorktreeFailed,
      `step ${step.step} (${step.stepId}) of ${workflowId} recorded no worktree checkpoint`,
      {
        where: '--to-step',
        expected: 'a step completed by a version that records checkpoints; its files cannot be restored',
      },
    );
  }
  if (worktreePath === undefined || !existsSync(worktreePath)) {
    throw new AgentError(
      FailureType.WorktreeFailed,
      `the worktree of ${workflowId}${worktreePath === undefined ? '' : ` (${worktreePath})`} is gone, and its checkpoints with it (a delivered run removes its worktree): nothing to restore`,
      { where: '--to-step', expected: 'a run whose worktree still exists; otherwise start a new run of the issue' },
    );
  }
  if (!(await checkpointExists(worktreePath, step.checkpoint))) {
    throw new AgentError(
      FailureType.WorktreeFailed,
      `the checkpoint of step ${step.step} (${step.checkpoint.slice(0, 12)}) is missing from the repository of ${worktreePath}`,
      {
        where: '--to-step',
        expected: 'the commit recorded on refs/agent/.../step-<k> (removed refs are garbage-collected)',
      },
    );
  }
  return step.checkpoint;
}

export async function resetToStep(cli: CliTemporal, workflowId: string, k: number, reason: string): Promise<string> {
  const handle = cli.client.workflow.getHandle(workflowId);
  const description = await handle.describe();
  const history = stepHistory((await handle.fetchHistory()).events ?? []);
  const step = history.steps.findLast((s) => s.step === k);
  if (step === undefined) {
    throw new AgentError(
      'RUN_NOT_FOUND',
      `run ${workflowId} has no completed step ${k}; completed steps: ${listSteps(history.steps)}`,
      {
        where: '--to-step',
      },
    );
  }
  const checkpoint = await checkWorktree(workflowId, step, history.worktreePath);
  if (step.resetEventIdRaw === undefined) {
    throw new AgentError(
      'RUN_NOT_FOUND',
      `step ${k} of ${workflowId} has just completed and the run has not moved on yet`,
      {
        where: '--to-step',
        expected: 'try again in a moment',
      },
    );
  }
  const response = await cli.client.workflowService.resetWorkflowExecution({
    namespace: cli.target.namespace,
    workflowExecution: { workflowId, runId: description.runId },
    reason,
    workflowTaskFinishEventId: step.resetEventIdRaw as never,
    requestId: randomUUID(),
    resetReapplyType: RESET_REAPPLY_TYPE_NONE,
  });
  const served =
    (await livePollers({ ...cli, taskQueue: description.taskQueue })) > 0
      ? ''
      : `\nno worker polls task queue ${description.taskQueue}: start \`issue-agent worker\` (or \`issue-agent start-run --issue <n> --repo <repo>\`, which attaches and serves it)`;
  return [
    `reset ${workflowId} to after step ${k} (${step.stepId}): new run ${response.runId ?? '?'}`,
    `step ${k + 1} runs next; the worktree ${history.worktreePath ?? ''} goes back to checkpoint ${checkpoint.slice(0, 12)} first`,
    `Web UI: ${workflowUrl(cli.target, workflowId)}${served}`,
  ].join('\n');
}

export async function resetCommand(argv: readonly string[]): Promise<number> {
  // Bad flags fail before anything connects to Temporal.
  const checked = commandFlags('reset', argv);
  if (checked === undefined) return 0;
  requireIssue(checked);
  requireStep(checked);
  return withRun('reset', argv, async ({ cli, workflowId, flags }) => {
    const k = requireStep(flags);
    const reason = optionalString(flags, 'reason') ?? `issue-agent reset --to-step ${k}`;
    printLine(process.stdout, await resetToStep(cli, workflowId, k, reason));
    return 0;
  });
}
