/**
 * A closure step with a subprocess `runner` (upstream merger): no prompt, no model
 * call. `${context.<key>}` in its args is filled from the run's parameters and issue
 * number; the command runs in the worktree (runStepRunner activity). Exit 0 is the
 * step's validated closing: completion conditions, then the boundary hook, then done.
 * Any other end (non-zero exit, timeout) is recorded and the flow goes on, as
 * upstream, until the iteration cap stops the run without a boundary effect.
 */
import { log } from '@temporalio/workflow';
import type { StepDefinition, StepRunnerSpec } from '../../contracts/definition.js';
import { FailureType } from '../../contracts/failures.js';
import { substituteContext } from '../../contracts/runner-context.js';
import { checkpointRequest } from '../../contracts/worktree-checkpoint.js';
import { withParameterDefaults } from '../../contracts/parameter-values.js';
import { noteError, recordStep } from '../run/state/run-transitions.js';
import { runnerActivities } from '../run/activity-proxies.js';
import { onRunHost } from '../hosting/run-host.js';
import { runCompletionConditions } from '../completion/completion-loop.js';
import { finishRun } from '../deliver/deliver-after-closing.js';
import { endWithoutChange } from '../deliver/end-without-change.js';
import type { IterationOutcome } from '../run/iteration-outcome.js';
import type { RunSession } from '../run/state/run-session.js';
import type { RunContext } from '../run/run-context.js';

const NO_USAGE = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 } as const;

export async function runRunnerStep(
  ctx: RunContext,
  session: RunSession,
  step: StepDefinition,
  runner: StepRunnerSpec,
  iteration: number,
): Promise<IterationOutcome> {
  const context = { ...withParameterDefaults(ctx.definition.parameters, ctx.input.parameters), issue: ctx.input.issue };
  const args = substituteContext(runner.args, context);
  if (!args.ok) {
    return {
      kind: 'failed',
      code: FailureType.PromptResolution,
      reason: `step "${step.stepId}": runner args need ${args.missing.map((k) => `\${context.${k}}`).join(', ')}; give them as agent parameters (--param ${args.missing[0]}=...)`,
    };
  }
  log.info('[StepFlow] running subprocess closure', { step: step.stepId, command: runner.command });
  const result = await onRunHost(ctx, session, (onHost, workspace) =>
    runnerActivities.runStepRunner.executeWithOptions(
      { summary: `${step.stepId} · runner · iteration ${iteration}`, ...onHost },
      [
        {
          stepId: step.stepId,
          worktreePath: workspace.worktreePath,
          command: runner.command,
          args: args.args,
          timeoutMs: runner.timeoutMs,
          checkpoint: checkpointRequest(ctx.workflowId, ctx.input.issue, iteration, session.state.worktreeCheckpoint),
        },
      ],
    ),
  );
  const succeeded = result.exitCode === 0;
  session.apply(recordStep, {
    iteration,
    stepId: step.stepId,
    stepKind: step.stepKind,
    ...(succeeded ? { intent: 'closing' as const, next: null } : {}),
    summary: result.summary,
    usage: NO_USAGE,
    costUsd: 0,
    turns: 0,
    ...(result.worktreeCheckpoint === undefined ? {} : { checkpoint: result.worktreeCheckpoint }),
  });
  if (!succeeded) {
    log.warn(`[StepFlow] ${result.summary}; the closure step runs again next iteration`, { step: step.stepId });
    session.apply(noteError, result.summary);
    return { kind: 'continue' };
  }
  const conditions = await runCompletionConditions(ctx, session, step.stepId, result.output);
  if (conditions.kind !== 'passed') return conditions;
  if (conditions.unchanged !== undefined)
    return endWithoutChange(ctx, session, result.output, conditions.unchanged, conditions.evidence);
  return finishRun(ctx, session, result.output, conditions.evidence, `${result.summary}; subprocess closure succeeded`);
}
