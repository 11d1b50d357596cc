/**
 * One iteration of the Flow loop (seed 000 "Basic Loop"): run the current step,
 * interpret its intent through the structured gate, record its handoff, and route.
 * A closure step's `closing` (the completionSignal) leads into the Completion loop.
 *
 * Then the agent's completion type decides whether the agent is done. A run ends
 * successfully only when that verdict is done AND the completion conditions pass in
 * the worktree: for stepMachine the two coincide (a validated closing); for the other
 * types, a done verdict runs the conditions before finishing.
 */
import { log } from '@temporalio/workflow';
import { FailureType } from '../../contracts/failures.js';
import { recordHandoff } from './step-context.js';
import { recordStep } from './run-state.js';
import { interpretGate } from './gate-interpreter.js';
import { routeIntent } from './intent-router.js';
import { normaliseStepId } from './normalise-step-id.js';
import type { ConditionResult } from '../../contracts/activities.js';
import { finishRun, runCompletionConditions } from '../completion/completion-loop.js';
import { decideVerdict } from '../completion/verdict-check.js';
import type { IterationOutcome } from './iteration-outcome.js';
import type { RunContext, RunSession } from '../run/run-session.js';
import { queryStep } from './model-step.js';

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
  session.update({ ...session.state, iteration, phase: step.stepKind === 'closure' ? 'closure' : 'flow' });

  const queried = await queryStep(ctx, session, step);
  if (queried.kind !== 'answered') {
    // A step stopped by the budget did not complete: it keeps its iteration number.
    if (queried.kind === 'budget-exhausted') session.update({ ...session.state, iteration: iteration - 1 });
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
  session.update(
    recordStep(
      { ...session.state, stepContext: recordHandoff(session.state.stepContext, step.stepId, gate.handoff) },
      {
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
      },
    ),
  );

  let evidence: readonly ConditionResult[] = [];
  let closingValidated = false;
  switch (route.kind) {
    case 'goto':
      for (const warning of route.warnings) log.warn(warning);
      log.info(`[StepFlow] Routing decision: ${step.stepId} -> ${route.stepId}`);
      session.update({ ...session.state, stepId: route.stepId });
      break;
    case 'closing': {
      const conditions = await runCompletionConditions(ctx, session, step.stepId);
      if (conditions.kind !== 'passed') return conditions;
      closingValidated = true;
      evidence = conditions.evidence;
      break;
    }
    case 'abort':
      return { kind: 'failed', code: FailureType.Aborted, reason: route.reason };
    case 'error':
      return { kind: 'failed', code: FailureType.FailedStepRouting, reason: route.reason };
  }

  session.update({ ...session.state, checkCount: session.state.checkCount + 1 });
  const assistantText = answer.summary;
  const decision = await decideVerdict(ctx, session, {
    step,
    intent: gate.intent,
    output,
    assistantText,
    closingValidated,
  });
  if (decision.done) {
    if (!closingValidated) {
      const conditions = await runCompletionConditions(ctx, session, step.stepId);
      if (conditions.kind !== 'passed') return conditions;
      evidence = conditions.evidence;
    }
    return finishRun(ctx, session, output, evidence, decision.reason);
  }
  if (closingValidated) {
    // A validated closing the completion type does not accept yet: keep working.
    const back =
      step.transitions.repeat !== undefined && 'target' in step.transitions.repeat
        ? step.transitions.repeat.target
        : null;
    log.info('[CompletionLoop] verdict not done after a validated closing', { reason: decision.reason });
    session.update({ ...session.state, stepId: back ?? step.stepId, lastError: decision.reason });
  }
  return { kind: 'continue' };
}
