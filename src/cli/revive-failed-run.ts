/**
 * `retry` on a run that already failed: a signal cannot reach a closed workflow, so a
 * new run of the same issue (same Workflow ID) starts with the failed run's input,
 * seeded with its StepContext at the step after the last completed one
 * (contracts/resume-point.ts), and the command says so. A live run is left to the
 * retry signal; a run that succeeded or was cancelled is not restarted. A `--prompt` is the
 * new run's guidance (RunInput.guidance), as a retry signal's would be: the same work after a
 * check that cannot pass by retrying would fail it again.
 */
import { defaultPayloadConverter } from '@temporalio/common';
import { AgentError } from '../contracts/errors.js';
import { FailureType } from '../contracts/failures.js';
import { shellQuote } from '../activities/process/shell-quote.js';
import { resumePointAfterFailure } from '../contracts/resume-point.js';
import type { RunInput, RunResult } from '../contracts/run.js';
import { runAgentWorkflow } from '../workflows/run-agent.js';
import { readRunResult } from '../host/run-result.js';
import { livePollers, type CliTemporal } from '../host/temporal/temporal-client.js';

export type Revival =
  | { readonly kind: 'live' }
  | { readonly kind: 'revived'; readonly message: string }
  | { readonly kind: 'not-failed'; readonly message: string };

export async function reviveFailedRun(cli: CliTemporal, workflowId: string, prompt?: string): Promise<Revival> {
  const handle = cli.client.workflow.getHandle<typeof runAgentWorkflow>(workflowId);
  const description = await handle.describe();
  if (description.status.name === 'RUNNING') return { kind: 'live' };
  // A failed run carries its result in the failure's details (contracts/run-end.ts).
  const result: RunResult | undefined = await readRunResult(handle).catch(() => undefined);
  if (result !== undefined && result.outcome !== 'failed') {
    return { kind: 'not-failed', message: `run ${workflowId} ended ${result.outcome}: nothing to retry` };
  }
  const history = await handle.fetchHistory();
  const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
  if (payload === undefined) {
    throw new AgentError('RUN_NOT_FOUND', `cannot read the input of run ${workflowId}`, {
      where: '--issue',
      expected: 'a run started by start-run or start-batch',
    });
  }
  const previous = defaultPayloadConverter.fromPayload<RunInput>(payload);
  const resume = result === undefined ? undefined : resumePointAfterFailure(result, description.runId);
  const { resumeFrom: _old, ...rest } = previous;
  const input: RunInput = {
    ...rest,
    ...(resume === undefined ? {} : { resumeFrom: resume }),
    // A prompt given now replaces the failed run's own guidance (a watcher's review text, say).
    ...(prompt === undefined ? {} : { guidance: prompt }),
  };
  await cli.client.workflow.start(runAgentWorkflow, {
    taskQueue: description.taskQueue,
    workflowId,
    args: [input],
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
  });
  const where =
    resume === undefined
      ? 'from its entry step (no completed step to resume from)'
      : `at step ${resume.stepId} with the StepContext of its last completed step`;
  // Nobody serves the new run unless a worker polls: say how to get it going.
  const served =
    (await livePollers(cli)) > 0
      ? ''
      : `\nno worker polls task queue ${description.taskQueue}: run it with \`issue-agent start-run --issue ${input.issue} --repo ${input.repoPath}\` (attaches and serves it in that process) or start \`issue-agent worker\``;
  return {
    kind: 'revived',
    message: `run ${workflowId} had failed (${result?.code ?? description.status.name}): started a new run ${where}${prompt === undefined ? '' : ', with your guidance for its first step'}${served}${staleEnvironmentNote(result, input)}\n`,
  };
}

/**
 * A run that failed preparing its environment, before any step: the new one reuses the
 * worktree and the environment prepared then (setup never runs twice in a worktree; an
 * untouched branch moves to the base's new tip, its environment does not). A fix of the
 * repository's setup or build files is not prepared for, so the command says how to start
 * from it instead.
 */
export function staleEnvironmentNote(result: RunResult | undefined, input: RunInput): string {
  if (result?.code !== FailureType.EnvironmentFailed || result.steps.length > 0) return '';
  const flags = `--issue ${input.issue} --repo ${shellQuote(input.repoPath)}`;
  const git = `git -C ${shellQuote(input.repoPath)}`;
  const discard =
    result.branch === undefined || result.worktreePath === undefined
      ? 'discard its branch and worktree'
      : `discard them (\`${git} worktree remove --force ${shellQuote(result.worktreePath)} && ${git} branch -D ${shellQuote(result.branch)}\`)`;
  return `\nnote: it failed preparing its environment; the new run reuses the worktree and the environment prepared then (setup never runs twice in a worktree), so a fix of the repository's setup or build files is not prepared for. If you fixed those, stop it (\`issue-agent cancel ${flags}\`), ${discard}, and \`issue-agent start-run ${flags}\` starts from the fix`;
}
