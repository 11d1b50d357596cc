/**
 * The Completion loop (docs/concepts.md#completion-loop). Stage 1 (the closure prompt and its structured
 * output) ran as the closure step's query. Here are stage 2, the completion conditions
 * run by the harness in the worktree, and the failing half of stage 3: a retry prompt
 * that becomes the next iteration's prompt, so the model always sees what failed (an
 * earlier in-process design re-ran checks without asking the model). The verdict is
 * closing-verdict.ts; delivery after it is deliver/deliver-after-closing.ts.
 */
import { checkpointRequest } from '../../contracts/worktree-checkpoint.js';
import { log } from '@temporalio/workflow';
import { completionGuardFor } from '../../contracts/completion-guard.js';
import type { ConditionResult, ValidationReport } from '../../contracts/activities.js';
import type { AgentDefinition, CompletionStepDefinition } from '../../contracts/definition.js';
import { FailureType } from '../../contracts/failures.js';
import { snapshotOf } from '../../contracts/step-inputs.js';
import type { JsonObject } from '../../contracts/json.js';
import { describeFailures, unrecoverableReason } from './describe-failures.js';
import { noChangeDeclarationOf, type NoChangeDeclaration, type UnchangedBranch } from '../../contracts/no-change.js';
import { preExistingClaimsOf, type PreExistingClaim } from '../../contracts/pre-existing-claims.js';
import { awaitRetryPrompt, countCompletionFailure, noteChecks } from '../run/state/run-transitions.js';
import { configActivities, workspaceActivities } from '../run/activity-proxies.js';
import { onRunHost } from '../hosting/run-host.js';
import type { IterationOutcome } from '../run/iteration-outcome.js';
import type { RunSession } from '../run/state/run-session.js';
import type { RunContext } from '../run/run-context.js';

/**
 * The completion step guarding a closure step, by the one rule of completionGuardFor:
 * its own, else the only one declared, else none.
 */
export function completionStepFor(definition: AgentDefinition, stepId: string): CompletionStepDefinition | undefined {
  const guard = completionGuardFor(stepId, Object.keys(definition.completionSteps));
  return guard.kind === 'none' ? undefined : definition.completionSteps[guard.completionStepId];
}

async function validate(
  ctx: RunContext,
  session: RunSession,
  completionStep: CompletionStepDefinition | undefined,
  noChange: NoChangeDeclaration | undefined,
  claims: readonly PreExistingClaim[],
): Promise<ValidationReport> {
  if (completionStep === undefined || completionStep.conditions.length === 0) return { passed: true, results: [] };
  return onRunHost(ctx, session, (onHost, workspace) =>
    workspaceActivities.runValidators.executeWithOptions({ summary: `validate ${completionStep.stepId}`, ...onHost }, [
      {
        worktreePath: workspace.worktreePath,
        completionStep,
        validators: ctx.definition.validators,
        artifactsDir: ctx.input.artifactsDir,
        workflowId: ctx.workflowId,
        // Same command, one more argument: the test-integrity guard allows what the issue asks for.
        issueText: `${ctx.workspace.issue.title}\n\n${ctx.workspace.issue.body}`,
        // `agent:tests-only`: a fix in the tests alone is what the issue asks for.
        ...(ctx.workspace.issue.labels.length === 0 ? {} : { issueLabels: ctx.workspace.issue.labels }),
        // The branch-changed condition checks the closure's no-change declaration against the branch.
        ...(noChange === undefined ? {} : { noChange }),
        // A test condition judged against its baseline checks each unblocking base failure is classified.
        ...(claims.length === 0 ? {} : { preExistingClaims: claims }),
        // After a reset to a closing step, the validators see that step's files, not later ones.
        checkpoint: checkpointRequest(
          ctx.workflowId,
          ctx.input.issue,
          session.state.iteration,
          session.state.worktreeCheckpoint,
        ),
      },
    ]),
  );
}

/** The step list's word on the conditions: which failed, by validator name; none run is not a pass. */
export function checksNote(report: ValidationReport): string {
  if (report.results.length === 0) return 'none configured';
  if (report.passed) return 'passed';
  const failed = [...new Set(report.results.filter((r) => !r.passed).map((r) => r.validator))];
  return `failed: ${failed.join(', ')}`;
}

export type ConditionsOutcome =
  | {
      readonly kind: 'passed';
      readonly evidence: readonly ConditionResult[];
      /** The branch has no change and the closure declared none was needed: end without delivery. */
      readonly unchanged?: UnchangedBranch;
    }
  | IterationOutcome;

/**
 * Stage 2 and the failing half of stage 3: runs the completion conditions guarding
 * `stepId`; on failure applies `onFail` (retry with a retry prompt, abort, skip),
 * bounded by `maxAttempts` per completion step. `output` is the closing's structured
 * output, read for its no-change declaration (contracts/no-change.ts) and its
 * classification of tests failing on the base (contracts/pre-existing-claims.ts).
 */
export async function runCompletionConditions(
  ctx: RunContext,
  session: RunSession,
  stepId: string,
  output?: JsonObject,
): Promise<ConditionsOutcome> {
  log.info('[CompletionLoop] enter', { step: stepId, iteration: session.state.iteration });
  session.setPhase('validating');
  const completionStep = completionStepFor(ctx.definition, stepId);
  const noChange = output === undefined ? undefined : noChangeDeclarationOf(output);
  const claims = output === undefined ? [] : preExistingClaimsOf(output);
  const report = await validate(ctx, session, completionStep, noChange, claims);
  session.noteGitRestored(`validators of ${stepId}`, report.gitRestored);
  // What was undone in the worktree before the validators judged it (ValidationReport.treeNotes).
  for (const note of report.treeNotes ?? []) session.warn(`validators of ${stepId}: ${note}`);
  log.info('[CompletionLoop] validation result', { passed: report.passed, results: report.results.length });
  session.apply(noteChecks, stepId, checksNote(report));
  if (report.passed || completionStep === undefined)
    return { kind: 'passed', evidence: report.results, ...(report.unchanged ? { unchanged: report.unchanged } : {}) };

  const failed = report.results.filter((r) => !r.passed);
  const unrecoverable = failed.find((r) => r.unrecoverable);
  if (unrecoverable !== undefined) {
    return {
      kind: 'failed',
      code: FailureType.ValidatorUnrecoverable,
      reason: unrecoverableReason(failed, unrecoverable),
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
  session.apply(countCompletionFailure, completionStep.stepId);
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
    ...snapshotOf(ctx.definition),
  });
  session.apply(awaitRetryPrompt, retry.text, describeFailures(failed));
  log.info('[CompletionLoop] exit with retry prompt', { source: retry.source, attempts });
  return { kind: 'continue' };
}
