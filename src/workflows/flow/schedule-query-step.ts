/**
 * scheduleQueryStep: one step's model query, the workflow side of the `queryStep` activity
 * (one name family for the step call, listed in CONTRIBUTING.md). One activity resolves the step's schema and prompt and runs the
 * tool loop. Schema failures (resolution or an invalid final answer) are counted toward
 * schema fail-fast: two in a row end the run with FAILED_SCHEMA_RESOLUTION.
 */
import { ApplicationFailure, log } from '@temporalio/workflow';
import { withParameterDefaults } from '../../contracts/parameter-values.js';
import type { QueryStepInput, QueryStepOutput, ResolvePromptInput } from '../../contracts/activities.js';
import type { StepDefinition } from '../../contracts/definition.js';
import { FailureType, SCHEMA_FAILURE_TYPES } from '../../contracts/failures.js';
import {
  buildPromptVariables,
  stepInputVariables,
  stepPromptInput,
  stepSchemaInput,
  withOperatorGuidance,
  withRetryAddendum,
} from '../../contracts/step-inputs.js';
import { remainingBudget } from '../run/state/run-state.js';
import {
  countSchemaFailure,
  keepForRerun,
  stepAnswered,
  stopOnBudget,
  takeStepInputs,
  type StepRerun,
} from '../run/state/run-transitions.js';
import { checkpointRequest } from '../../contracts/worktree-checkpoint.js';
import { modelActivities } from '../run/activity-proxies.js';
import { onRunHost } from '../hosting/run-host.js';
import { failureInfo } from '../run/failure-info.js';
import type { IterationOutcome } from '../run/iteration-outcome.js';
import type { RunSession } from '../run/state/run-session.js';
import type { RunContext } from '../run/run-context.js';
import { stepAsked } from './asked-step.js';

type PromptParts = Pick<QueryStepInput, 'prompt' | 'stepPrompt' | 'guidance' | 'retryAddendum' | 'answer'>;
export type QueryStepResult = { readonly kind: 'answered'; readonly answer: QueryStepOutput } | IterationOutcome;

function schemaFailure(session: RunSession, step: StepDefinition, message: string): IterationOutcome {
  session.apply(countSchemaFailure, message);
  const failures = session.state.consecutiveSchemaFailures;
  log.warn('schema failure', { step: step.stepId, failures, message });
  if (failures >= 2) {
    return {
      kind: 'failed',
      code: FailureType.FailedSchemaResolution,
      reason: `step "${step.stepId}": two consecutive schema failures; last: ${message}`,
    };
  }
  return { kind: 'continue' };
}

/** How to resolve the step's own prompt (pure); an undeclared input fails with PromptResolution. */
function basePromptInput(ctx: RunContext, session: RunSession, step: StepDefinition): ResolvePromptInput {
  const variables = buildPromptVariables({
    parameters: withParameterDefaults(ctx.definition.parameters, ctx.input.parameters),
    iteration: session.state.iteration,
    maxIterations: ctx.maxIterations,
    previousSummary: session.state.previousSummary,
    issue: ctx.workspace.issue,
    stepContext: session.state.stepContext,
    agentName: ctx.definition.name,
    branch: ctx.workspace.branch,
  });
  const inputs = stepInputVariables(step.stepId, step.inputs, session.state.stepContext);
  if (!inputs.ok) throw ApplicationFailure.nonRetryable(inputs.reason, FailureType.PromptResolution);
  // Declared inputs fill in defaults; handoffs already present and parameters keep their values.
  const merged = { ...inputs.variables, ...variables };
  return stepPromptInput(ctx.definition, step, merged);
}

/**
 * The step's prompt as the activity resolves it: a pending retry prompt as text, else the
 * step's own prompt input; operator guidance travels alongside and is appended there.
 * `readOnly`: the step's sandbox sees the worktree read-only (its own setting, or its plan
 * awaits approval: flow-iteration.ts).
 */
export async function scheduleQueryStep(
  ctx: RunContext,
  session: RunSession,
  step: StepDefinition,
  readOnly: boolean,
): Promise<QueryStepResult> {
  const { guidance, addendum, prompt: retryPrompt, answer } = session.take(takeStepInputs);
  let prompt: PromptParts;
  const answered = answer === undefined ? {} : { answer };
  try {
    prompt =
      retryPrompt !== undefined
        ? { prompt: withOperatorGuidance(withRetryAddendum(retryPrompt, addendum), guidance), ...answered }
        : {
            stepPrompt: basePromptInput(ctx, session, step),
            ...(addendum === undefined ? {} : { retryAddendum: addendum }),
            ...(guidance === undefined ? {} : { guidance }),
            ...answered,
          };
  } catch (err) {
    const info = failureInfo(err);
    return { kind: 'failed', code: info.type ?? FailureType.PromptResolution, reason: info.message };
  }
  // A step that did not run to an answer runs again as it would have: same retry prompt, same guidance.
  const keep: StepRerun = {
    ...(prompt.prompt !== undefined
      ? { pendingRetryPrompt: prompt.prompt }
      : {
          ...(addendum === undefined ? {} : { pendingRetryAddendum: addendum }),
          ...(guidance === undefined ? {} : { operatorGuidance: guidance }),
        }),
    ...(answer === undefined ? {} : { pendingAnswer: answer }),
  };
  const resolution = { ...prompt, stepSchema: stepSchemaInput(ctx.definition, step) };
  return executeQueryStep(ctx, session, step, readOnly, resolution, keep);
}

function hasRerun(rerun: StepRerun): boolean {
  return Object.values(rerun).some((v) => v !== undefined);
}

async function executeQueryStep(
  ctx: RunContext,
  session: RunSession,
  step: StepDefinition,
  readOnly: boolean,
  resolution: PromptParts & Pick<QueryStepInput, 'stepSchema'>,
  rerun: StepRerun,
): Promise<QueryStepResult> {
  try {
    const answer = await onRunHost(ctx, session, (onHost, workspace) =>
      modelActivities.queryStep.executeWithOptions(
        {
          summary: `${step.stepId} · iteration ${session.state.iteration}`,
          ...onHost,
          ...(ctx.input.tuning?.heartbeatTimeoutMs === undefined
            ? {}
            : { heartbeatTimeout: ctx.input.tuning.heartbeatTimeoutMs }),
        },
        [
          {
            workflowId: ctx.workflowId,
            issue: ctx.input.issue,
            stepId: step.stepId,
            stepKind: step.stepKind,
            iteration: session.state.iteration,
            worktreePath: workspace.worktreePath,
            artifactsDir: ctx.input.artifactsDir,
            system: ctx.system,
            issueContext: ctx.issueContext,
            ...resolution,
            model: step.model === undefined ? ctx.definition.model : { ...ctx.definition.model, model: step.model },
            readOnly,
            tools: {
              issueSource: ctx.input.issueSource,
              repoPath: ctx.input.repoPath,
              ...(ctx.definition.githubTool === undefined ? {} : { github: ctx.definition.githubTool }),
            },
            budget: remainingBudget(session.state),
            checkpoint: checkpointRequest(
              ctx.workflowId,
              ctx.input.issue,
              session.state.iteration,
              session.state.worktreeCheckpoint,
            ),
          },
        ],
      ),
    );
    // The worktree is at the step's checkpoint now, whatever the gate says of its answer.
    session.apply(stepAnswered, answer.worktreeCheckpoint);
    session.noteGitRestored(`step ${step.stepId}`, answer.gitRestored);
    if (answer.question !== undefined) return stepAsked(session, step, rerun, answer, answer.question);
    return { kind: 'answered', answer };
  } catch (err) {
    const info = failureInfo(err);
    if (info.cancelled) throw err;
    if (info.type !== undefined && (SCHEMA_FAILURE_TYPES as readonly string[]).includes(info.type)) {
      // The same step runs next: with the retry prompt it was given, not without it.
      if (hasRerun(rerun)) session.apply(keepForRerun, rerun);
      return schemaFailure(session, step, info.message);
    }
    if (info.type === FailureType.BudgetExhausted) {
      // The prompt is not lost: the step runs again with it once the budget is raised.
      // What the stopped step spent still counts against the budget.
      session.apply(stopOnBudget, rerun, step, info.details[0]);
      return { kind: 'budget-exhausted', reason: info.message };
    }
    return { kind: 'failed', code: info.type ?? FailureType.ModelUnavailable, reason: info.message };
  }
}
