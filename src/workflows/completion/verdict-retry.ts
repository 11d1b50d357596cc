/**
 * Stage 3 when the verdict does not accept a validated closing (docs/concepts.md#verdict:
 * `done:false` comes with a retry prompt): the reason becomes a failure of pattern `verdict-not-met`
 * with params, and its retry prompt is built like any validator's, from the agent's
 * C3L retry templates (`<c1>/<c2>/<c3>/f_failed_verdict-not-met.md`, then `f_failed.md`),
 * by the same activity, from the run's definition snapshot. The text lives in prompts/,
 * never here.
 */
import type { BuildRetryPromptInput, ConditionResult } from '../../contracts/activities.js';
import { VERDICT_NOT_MET } from '../../contracts/completion-types.js';
import type { AgentDefinition, CompletionStepDefinition } from '../../contracts/definition.js';
import { snapshotOf } from '../../contracts/step-inputs.js';
import { configActivities } from '../run/activity-proxies.js';
import { completionStepFor } from './completion-loop.js';

/** The verdict's reason as a failed condition: what the retry template reads. PURE. */
export function verdictFailure(reason: string, verdict: string, nextStep: string): ConditionResult {
  return {
    validator: 'verdict',
    passed: false,
    summary: reason,
    failurePattern: VERDICT_NOT_MET,
    params: { reason, verdict, nextStep },
    unrecoverable: false,
  };
}

/**
 * Where the closure step's retry prompts live: its completion step's `c2`/`c3`, else
 * the default a completion step of that id would have (`retry`, the id's last segment).
 */
export function retryHome(
  closureStepId: string,
  guard: CompletionStepDefinition | undefined,
): CompletionStepDefinition {
  if (guard !== undefined) return guard;
  return {
    stepId: closureStepId,
    name: closureStepId,
    c2: 'retry',
    c3: closureStepId.split('.').at(-1) ?? closureStepId,
    conditions: [],
    onFail: { action: 'retry', maxAttempts: 1 },
  };
}

export function verdictRetryInput(
  definition: AgentDefinition,
  closureStepId: string,
  guard: CompletionStepDefinition | undefined,
  failure: ConditionResult,
): BuildRetryPromptInput {
  return {
    promptsDir: definition.promptsDir,
    c1: definition.c1,
    completionStep: retryHome(closureStepId, guard),
    failurePatterns: definition.failurePatterns,
    failed: [failure],
    ...snapshotOf(definition),
  };
}

/** The retry prompt text for a verdict that said "not done" at `closureStepId`. */
export async function buildVerdictRetry(
  definition: AgentDefinition,
  closureStepId: string,
  reason: string,
  nextStep: string,
): Promise<string> {
  const failure = verdictFailure(reason, definition.verdict.type, nextStep);
  const guard = completionStepFor(definition, closureStepId);
  const retry = await configActivities.buildRetryPrompt(verdictRetryInput(definition, closureStepId, guard, failure));
  return retry.text;
}
