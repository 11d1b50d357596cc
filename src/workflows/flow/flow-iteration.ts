/**
 * One iteration of the Flow loop (docs/concepts.md#flow-loop): run the current step,
 * interpret its intent through the structured gate, record its handoff, and route.
 * A closure step's `closing` (the completionSignal) leads into the Completion loop.
 *
 * Whatever the completion type, only that validated `closing` completes the agent.
 * At a work or verification step the type's criterion only decides whether the agent
 * MAY complete: once met, the flow goes to a closure step (criterion-gate).
 *
 * Plan approval (issue 40) is part of the iteration: with a `planApproval` policy, the
 * agent's entry step is the plan. While the plan is not approved that step runs read-only
 * (the worktree is mounted read-only in its sandbox), so no file changes before `/approve`;
 * when it routes on and the policy asks for approval (always, or by the files the plan
 * names), the iteration ends with the plan and the step it would go to, and the run waits
 * for a person (run/state/plan-wait.ts). Runs without a policy never reach any of this.
 */
import { log } from '@temporalio/workflow';
import type { StepDefinition } from '../../contracts/definition.js';
import { FailureType } from '../../contracts/failures.js';
import { approvalReason, planFiles } from '../../contracts/plan-approval.js';
import { beginIteration, goToStep, recordAnsweredStep, uncountIteration } from '../run/state/run-transitions.js';
import { interpretGate, normaliseStepId } from './gate-interpreter.js';
import { routeIntent } from './intent-router.js';
import { runCompletionConditions } from '../completion/completion-loop.js';
import { verdictAfterClosing } from '../completion/closing-verdict.js';
import { gateOnCriterion } from '../completion/criterion-gate.js';
import { endWithoutChange } from '../deliver/end-without-change.js';
import type { VerdictArgs } from '../completion/verdict-check.js';
import type { IterationOutcome } from '../run/iteration-outcome.js';
import type { RunSession } from '../run/state/run-session.js';
import type { RunContext } from '../run/run-context.js';
import { scheduleQueryStep } from './schedule-query-step.js';
import { runRunnerStep } from './runner-step.js';

export async function runFlowIteration(ctx: RunContext, session: RunSession): Promise<IterationOutcome> {
  const stepId = session.state.stepId;
  const step = ctx.definition.steps[stepId];
  if (step === undefined) {
    return {
      kind: 'failed',
      code: FailureType.FailedStepRouting,
      reason: `current step "${stepId}" is not in the registry`,
    };
  }
  const iteration = session.state.iteration + 1;
  session.apply(beginIteration, iteration, step.stepKind);
  if (step.runner !== undefined) return runRunnerStep(ctx, session, step, step.runner, iteration);

  const queried = await scheduleQueryStep(ctx, session, step, step.readOnly || planPending(ctx, session, step));
  if (queried.kind !== 'answered') {
    // A step stopped by the budget or by its question did not complete: it keeps its iteration number.
    if (queried.kind === 'budget-exhausted' || queried.kind === 'question') session.apply(uncountIteration, iteration);
    return queried;
  }
  const { answer } = queried;

  const normalised = normaliseStepId(answer.output, step.stepId);
  if (normalised.correction !== undefined) log.warn(normalised.correction, { step: step.stepId });
  const output = normalised.output;

  const gate = interpretGate(step, output);
  if (!gate.ok) return { kind: 'failed', code: FailureType.FailedStepRouting, reason: gate.reason };
  for (const warning of gate.warnings) log.warn(warning);
  log.info(`[StepFlow] Interpreted intent: ${gate.intent}`, { step: step.stepId });

  const route = routeIntent({
    definition: ctx.definition,
    step,
    intent: gate.intent,
    handoff: gate.handoff,
    ...(gate.target === undefined ? {} : { target: gate.target }),
  });
  const next = route.kind === 'goto' ? route.stepId : route.kind === 'closing' ? null : undefined;
  session.apply(recordAnsweredStep, gate.handoff, {
    iteration,
    stepId: step.stepId,
    stepKind: step.stepKind,
    intent: gate.intent,
    ...(next === undefined ? {} : { next }),
    summary: typeof output['summary'] === 'string' ? output['summary'] : answer.summary,
    usage: answer.usage,
    costUsd: answer.costUsd,
    turns: answer.turns,
    transcript: answer.transcript.path,
    ...(answer.worktreeCheckpoint === undefined ? {} : { checkpoint: answer.worktreeCheckpoint }),
  });

  const args: VerdictArgs = {
    step,
    intent: gate.intent,
    output,
    assistantText: answer.summary,
    closingValidated: false,
  };
  switch (route.kind) {
    case 'goto': {
      for (const warning of route.warnings) log.warn(warning);
      const plan = planForApproval(ctx, session, step, output, route.stepId);
      if (plan !== undefined) return plan;
      log.info(`[StepFlow] Routing decision: ${step.stepId} -> ${route.stepId}`);
      session.apply(goToStep, route.stepId);
      break;
    }
    case 'closing': {
      const conditions = await runCompletionConditions(ctx, session, step.stepId, output);
      if (conditions.kind !== 'passed') return conditions;
      if (conditions.unchanged !== undefined)
        return endWithoutChange(ctx, session, output, conditions.unchanged, conditions.evidence);
      const validated = { ...args, closingValidated: true };
      return verdictAfterClosing(ctx, session, validated, conditions.evidence);
    }
    case 'abort':
      return { kind: 'failed', code: FailureType.Aborted, reason: route.reason };
    case 'error':
      return { kind: 'failed', code: FailureType.FailedStepRouting, reason: route.reason };
  }
  // stepMachine has no criterion: its end is the closure step's `closing`, so nothing is gated.
  if (step.stepKind === 'closure' || ctx.definition.verdict.type === 'stepMachine') return { kind: 'continue' };
  return gateOnCriterion(ctx, session, args);
}

const MAX_PLAN_CHARS = 6_000;

/** The entry step of a run whose plan still needs approving (or may: the policy decides after). */
export function planPending(ctx: RunContext, session: RunSession, step: Pick<StepDefinition, 'stepId'>): boolean {
  const policy = ctx.input.planApproval;
  return (
    policy !== undefined &&
    policy !== 'never' &&
    step.stepId === ctx.definition.entryStep &&
    session.state.planApproved !== true
  );
}

/**
 * The plan to approve, when the policy asks for it; undefined lets the flow go on to `next`.
 * A plan step that routes to itself (`repeat`) has not finished its plan: nothing to approve yet.
 */
export function planForApproval(
  ctx: RunContext,
  session: RunSession,
  step: Pick<StepDefinition, 'stepId'>,
  output: Readonly<Record<string, unknown>>,
  next: string,
): IterationOutcome | undefined {
  if (!planPending(ctx, session, step) || next === step.stepId) return undefined;
  const files = planFiles(output);
  const reason = approvalReason(ctx.input.planApproval, files);
  if (reason === undefined) return undefined;
  const { next_action: _intent, ...plan } = output;
  const text = JSON.stringify(plan, null, 2);
  return {
    kind: 'plan',
    next,
    reason,
    files,
    plan: text.length <= MAX_PLAN_CHARS ? text : `${text.slice(0, MAX_PLAN_CHARS)}\n… (cut)`,
  };
}
