/**
 * Runs one step's model query: schema, prompt, then the tool loop activity.
 * Schema failures (resolution or an invalid final answer) are counted toward
 * schema fail-fast: two in a row end the run with FAILED_SCHEMA_RESOLUTION.
 */
import { ApplicationFailure, log, patched } from '@temporalio/workflow';
import { stepInputVariables } from './declared-inputs.js';
import { withParameterDefaults } from '../../contracts/parameter-values.js';
import type { QueryStepOutput, SchemaDigest } from '../../contracts/activities.js';
import type { StepDefinition } from '../../contracts/definition.js';
import { FailureType, SCHEMA_FAILURE_TYPES } from '../../contracts/failures.js';
import { buildPromptVariables } from './prompt-variables.js';
import { stepPromptInput, stepSchemaInput } from '../../contracts/step-inputs.js';
import { recordStep, remainingBudget, takeGuidance, takeRetryPrompt, type RunState } from './run-state.js';
import { isJsonObject } from '../../contracts/json.js';
import { checkpointRequest } from '../../contracts/worktree-checkpoint.js';
import { configActivities, modelActivities, onWorktreeHost } from '../run/activity-proxies.js';
import { failureInfo } from '../run/failure-info.js';
import type { IterationOutcome } from './iteration-outcome.js';
import type { RunContext, RunSession } from '../run/run-session.js';

export type StepQueryOutcome = { readonly kind: 'answered'; readonly answer: QueryStepOutput } | IterationOutcome;

function schemaFailure(session: RunSession, step: StepDefinition, message: string): IterationOutcome {
  const failures = session.state.consecutiveSchemaFailures + 1;
  session.update({ ...session.state, consecutiveSchemaFailures: failures, lastError: message });
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

/** Operator guidance adds to the step prompt; histories from before replaced it (and any retry prompt). */
const GUIDANCE_PATCH = 'retry-guidance-adds';

async function resolveStepPrompt(ctx: RunContext, session: RunSession, step: StepDefinition): Promise<string> {
  const withGuidance = takeGuidance(session.state);
  const guidance = withGuidance.guidance;
  if (guidance !== undefined && !patched(GUIDANCE_PATCH)) {
    session.update(takeRetryPrompt(withGuidance.state).state);
    return guidance;
  }
  const taken = takeRetryPrompt(withGuidance.state);
  session.update(taken.state);
  const text = taken.prompt ?? (await resolveBasePrompt(ctx, session, step));
  return guidance === undefined ? text : `${text}\n\n<operator_guidance>\n${guidance}\n</operator_guidance>`;
}

async function resolveBasePrompt(ctx: RunContext, session: RunSession, step: StepDefinition): Promise<string> {
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
  const resolved = await configActivities.resolvePrompt(stepPromptInput(ctx.definition, step, merged));
  return resolved.text;
}

/** A step stopped by the budget: its partial spend (tokens as input, cost as reported) is recorded. */
function recordStoppedStep(state: RunState, step: StepDefinition, details: unknown): RunState {
  const d = isJsonObject(details) ? details : {};
  const tokens = typeof d['usedTokens'] === 'number' ? d['usedTokens'] : 0;
  const cost = typeof d['usedUsd'] === 'number' ? d['usedUsd'] : 0;
  if (tokens === 0 && cost === 0) return state;
  return recordStep(state, {
    iteration: state.iteration,
    stepId: step.stepId,
    stepKind: step.stepKind,
    summary: 'stopped by the budget before its next model call (partial spend)',
    usage: { inputTokens: tokens, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    costUsd: cost,
    turns: 0,
  });
}

export async function queryStep(ctx: RunContext, session: RunSession, step: StepDefinition): Promise<StepQueryOutcome> {
  let schema: SchemaDigest;
  try {
    schema = await configActivities.resolveSchema(stepSchemaInput(ctx.definition, step));
  } catch (err) {
    const info = failureInfo(err);
    if (info.cancelled) throw err;
    return schemaFailure(session, step, info.message);
  }

  let prompt: string;
  try {
    prompt = await resolveStepPrompt(ctx, session, step);
  } catch (err) {
    const info = failureInfo(err);
    if (info.cancelled) throw err;
    return { kind: 'failed', code: info.type ?? FailureType.PromptResolution, reason: info.message };
  }

  try {
    const answer = await modelActivities.queryStep.executeWithOptions(
      {
        summary: `${step.stepId} · iteration ${session.state.iteration}`,
        ...onWorktreeHost(ctx.workspace.hostTaskQueue),
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
          worktreePath: ctx.workspace.worktreePath,
          artifactsDir: ctx.input.artifactsDir,
          system: ctx.system,
          issueContext: ctx.issueContext,
          prompt,
          schema,
          model: step.model === undefined ? ctx.definition.model : { ...ctx.definition.model, model: step.model },
          readOnly: step.readOnly,
          budget: remainingBudget(session.state),
          checkpoint: checkpointRequest(
            ctx.workflowId,
            ctx.input.issue,
            session.state.iteration,
            session.state.worktreeCheckpoint,
          ),
        },
      ],
    );
    // The worktree is at the step's checkpoint now, whatever the gate says of its answer.
    session.update({
      ...session.state,
      consecutiveSchemaFailures: 0,
      ...(answer.worktreeCheckpoint === undefined ? {} : { worktreeCheckpoint: answer.worktreeCheckpoint }),
    });
    session.noteGitRestored(`step ${step.stepId}`, answer.gitRestored);
    return { kind: 'answered', answer };
  } catch (err) {
    const info = failureInfo(err);
    if (info.cancelled) throw err;
    if (info.type !== undefined && (SCHEMA_FAILURE_TYPES as readonly string[]).includes(info.type)) {
      return schemaFailure(session, step, info.message);
    }
    if (info.type === FailureType.BudgetExhausted) {
      // The prompt is not lost: the step runs again with it once the budget is raised.
      // What the stopped step spent still counts against the budget.
      session.update(recordStoppedStep({ ...session.state, pendingRetryPrompt: prompt }, step, info.details[0]));
      return { kind: 'budget-exhausted', reason: info.message };
    }
    return { kind: 'failed', code: info.type ?? FailureType.ModelUnavailable, reason: info.message };
  }
}
