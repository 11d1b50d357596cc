/**
 * The Completion loop of seed 000. Stage 1 (the closure prompt and its structured
 * output) ran as the closure step's query. Here are stage 2, the completion conditions
 * run by the harness in the worktree, and stage 3, the verdict: done (boundary hook),
 * or a retry prompt that becomes the next iteration's prompt, so the model always sees
 * what failed (an earlier in-process design re-ran checks without asking the model).
 */
import { checkpointRequest } from '../../contracts/worktree-checkpoint.js';
import { log } from '@temporalio/workflow';
import type { ConditionResult, ValidationReport } from '../../contracts/activities.js';
import {
  ClosureAction,
  type AgentDefinition,
  type CompletionStepDefinition,
  type LabelChange,
} from '../../contracts/definition.js';
import { FailureType } from '../../contracts/failures.js';
import { deliveryModeOf } from '../../contracts/delivery.js';
import { isJsonObject, type JsonObject } from '../../contracts/json.js';
import type { BoundaryReport } from '../../contracts/run.js';
import { countCompletionFailure } from '../flow/run-state.js';
import { boundaryActivities, configActivities, onWorktreeHost, workspaceActivities } from '../run/activity-proxies.js';
import type { IterationOutcome } from '../flow/iteration-outcome.js';
import type { RunContext, RunSession } from '../run/run-session.js';

/**
 * The completion step guarding a step: the one with the same id, else the only one
 * declared, else the first declared (an agent whose verdict ends the run elsewhere).
 */
export function completionStepFor(definition: AgentDefinition, stepId: string): CompletionStepDefinition | undefined {
  const exact = definition.completionSteps[stepId];
  if (exact !== undefined) return exact;
  return Object.values(definition.completionSteps)[0];
}

/** Names what failed, with the items a user looks for first (failing tests, dirty files). */
export function describeFailures(failed: readonly ConditionResult[]): string {
  return failed
    .map((r) => {
      const items = Object.entries(r.params).flatMap(([key, value]) =>
        Array.isArray(value) && value.length > 0
          ? [
              `${key}: ${value
                .slice(0, 10)
                .map((v) =>
                  isJsonObject(v) && typeof v['name'] === 'string'
                    ? v['name']
                    : typeof v === 'string'
                      ? v
                      : JSON.stringify(v),
                )
                .join(', ')}`,
            ]
          : [],
      );
      return `${r.validator}: ${r.summary.trim()}${items.length > 0 ? ` (${items.join('; ')})` : ''}`;
    })
    .join('; ');
}

async function validate(
  ctx: RunContext,
  session: RunSession,
  completionStep: CompletionStepDefinition | undefined,
): Promise<ValidationReport> {
  if (completionStep === undefined || completionStep.conditions.length === 0) return { passed: true, results: [] };
  return workspaceActivities.runValidators.executeWithOptions(
    { summary: `validate ${completionStep.stepId}`, ...onWorktreeHost(ctx.workspace.hostTaskQueue) },
    [
      {
        worktreePath: ctx.workspace.worktreePath,
        completionStep,
        validators: ctx.definition.validators,
        artifactsDir: ctx.input.artifactsDir,
        workflowId: ctx.workflowId,
        // Same command, one more argument: the test-integrity guard allows what the issue asks for.
        issueText: `${ctx.workspace.issue.title}\n\n${ctx.workspace.issue.body}`,
        // After a reset to a closing step, the validators see that step's files, not later ones.
        checkpoint: checkpointRequest(
          ctx.workflowId,
          ctx.input.issue,
          session.state.iteration,
          session.state.worktreeCheckpoint,
        ),
      },
    ],
  );
}

export type ConditionsOutcome =
  { readonly kind: 'passed'; readonly evidence: readonly ConditionResult[] } | IterationOutcome;

/**
 * Stage 2 and the failing half of stage 3: runs the completion conditions guarding
 * `stepId`; on failure applies `onFail` (retry with a retry prompt, abort, skip),
 * bounded by `maxAttempts` per completion step.
 */
export async function runCompletionConditions(
  ctx: RunContext,
  session: RunSession,
  stepId: string,
): Promise<ConditionsOutcome> {
  log.info('[CompletionLoop] enter', { step: stepId, iteration: session.state.iteration });
  session.setPhase('validating');
  const completionStep = completionStepFor(ctx.definition, stepId);
  const report = await validate(ctx, session, completionStep);
  session.noteGitRestored(`validators of ${stepId}`, report.gitRestored);
  log.info('[CompletionLoop] validation result', { passed: report.passed, results: report.results.length });
  if (report.passed || completionStep === undefined) return { kind: 'passed', evidence: report.results };

  const failed = report.results.filter((r) => !r.passed);
  const unrecoverable = failed.find((r) => r.unrecoverable);
  if (unrecoverable !== undefined) {
    return {
      kind: 'failed',
      code: FailureType.ValidatorUnrecoverable,
      reason: `validator "${unrecoverable.validator}" cannot succeed by retrying: ${unrecoverable.summary}`,
    };
  }
  const { action, maxAttempts } = completionStep.onFail;
  switch (action) {
    case 'skip':
      log.warn('[CompletionLoop] failing conditions skipped by onFail.action=skip', {
        failed: describeFailures(failed),
      });
      return { kind: 'passed', evidence: report.results };
    case 'abort':
      return {
        kind: 'failed',
        code: FailureType.ValidationAborted,
        reason: `completion conditions failed (onFail: abort): ${describeFailures(failed)}`,
      };
    case 'retry':
      break;
  }
  session.update(countCompletionFailure(session.state, completionStep.stepId));
  const attempts = session.state.completionAttempts[completionStep.stepId] ?? 0;
  if (attempts >= maxAttempts) {
    return {
      kind: 'failed',
      code: FailureType.ValidationAborted,
      reason: `completion conditions still failing after ${attempts} attempt(s) of ${completionStep.stepId}: ${describeFailures(failed)}`,
    };
  }
  const retry = await configActivities.buildRetryPrompt({
    promptsDir: ctx.definition.promptsDir,
    c1: ctx.definition.c1,
    completionStep,
    failurePatterns: ctx.definition.failurePatterns,
    failed,
  });
  session.update({ ...session.state, pendingRetryPrompt: retry.text, lastError: describeFailures(failed) });
  log.info('[CompletionLoop] exit with retry prompt', { source: retry.source, attempts });
  return { kind: 'continue' };
}

/** The closure output may choose the action (`closure_action`) and add labels (`issue.labels`). */
function closureActionOf(ctx: RunContext, output: JsonObject): ClosureAction {
  const chosen = output['closure_action'];
  return typeof chosen === 'string' && (Object.values(ClosureAction) as string[]).includes(chosen)
    ? (chosen as ClosureAction)
    : ctx.definition.closureAction;
}

function labelsOf(ctx: RunContext, output: JsonObject): LabelChange {
  const issue = output['issue'];
  const labels = isJsonObject(issue) && isJsonObject(issue['labels']) ? issue['labels'] : {};
  const strings = (v: unknown): string[] =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  return {
    add: [...new Set([...ctx.definition.completionLabels.add, ...strings(labels['add'])])],
    remove: [...new Set([...ctx.definition.completionLabels.remove, ...strings(labels['remove'])])],
  };
}

/** The boundary hook, the only place with effects outside the worktree. */
export async function runBoundary(
  ctx: RunContext,
  session: RunSession,
  output: JsonObject,
  evidence: readonly ConditionResult[],
): Promise<BoundaryReport> {
  session.setPhase('boundary');
  const summary = typeof output['summary'] === 'string' ? output['summary'] : '';
  return boundaryActivities.runBoundaryHook.executeWithOptions(
    {
      summary: `boundary hook · issue #${ctx.input.issue}`,
      ...onWorktreeHost(ctx.workspace.hostTaskQueue),
      ...(ctx.input.tuning?.heartbeatTimeoutMs === undefined
        ? {}
        : { heartbeatTimeout: ctx.input.tuning.heartbeatTimeoutMs }),
    },
    [
      {
        workflowId: ctx.workflowId,
        mode: ctx.input.issueSource,
        delivery: deliveryModeOf(ctx.input),
        repoPath: ctx.input.repoPath,
        worktreePath: ctx.workspace.worktreePath,
        branch: ctx.workspace.branch,
        baseBranch: ctx.workspace.baseBranch,
        issue: ctx.input.issue,
        closureAction: closureActionOf(ctx, output),
        labels: labelsOf(ctx, output),
        summary,
        evidence,
      },
    ],
  );
}

/** The run's successful end, after the boundary hook ran. */
export function doneOutcome(
  output: JsonObject,
  evidence: readonly ConditionResult[],
  boundary: BoundaryReport,
  why: string,
): IterationOutcome {
  // Success means delivered: validated work whose delivery did not fully happen fails
  // the run, with what happened and what is left to do.
  if (boundary.status !== 'success') return undelivered(boundary, evidence.length);
  const verdict = typeof output['verdict'] === 'string' ? output['verdict'] : undefined;
  return {
    kind: 'done',
    reason: `${why.replace(/\.$/, '')} (${evidence.length} completion condition(s) checked; boundary ${boundary.status})`,
    boundary,
    ...(verdict === undefined ? {} : { verdict }),
  };
}

/** Stage 3, done: the boundary hook, then the run ends. */
export async function finishRun(
  ctx: RunContext,
  session: RunSession,
  output: JsonObject,
  evidence: readonly ConditionResult[],
  why: string,
): Promise<IterationOutcome> {
  const boundary = await runBoundary(ctx, session, output, evidence);
  return doneOutcome(output, evidence, boundary, why);
}

function undelivered(boundary: BoundaryReport, checked: number): IterationOutcome {
  const why = boundary.effects
    .filter((e) => e.status === 'failed' || e.status === 'skipped')
    .map((e) => `${e.name}: ${e.detail}`)[0];
  const pending = boundary.pending.length ? `; to finish: ${boundary.pending.join('; ')}` : '';
  return {
    kind: 'failed',
    code: FailureType.BoundaryFailed,
    reason: `validated (${checked} completion condition(s) checked), but ${boundary.delivery ?? 'the'} delivery is ${boundary.status}${why ? ` (${why})` : ''}${pending}`,
    boundary,
  };
}
