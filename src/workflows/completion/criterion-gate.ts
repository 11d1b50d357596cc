/**
 * The completion type's criterion at a work or verification step (seed 000): it
 * decides whether the agent MAY complete, never completes it. Once met (latched in
 * RunState.criterionMet) the flow goes to a closure step, whose validated `closing`
 * is the only way to the boundary hook. stepMachine has no criterion of its own: its
 * end is the closure step's `closing`.
 */
import { log } from '@temporalio/workflow';
import { FailureType } from '../../contracts/failures.js';
import type { IterationOutcome } from '../run/iteration-outcome.js';
import type { RunSession } from '../run/state/run-session.js';
import type { RunContext } from '../run/run-context.js';
import { countCheck, goToStep, latchCriterion } from '../run/state/run-transitions.js';
import { closureStepFor } from './closure-target.js';
import { decideVerdict, type VerdictArgs } from './verdict-check.js';

/** Iterations a run may take past its cap once the criterion is met, for the Completion loop. */
export const CLOSURE_GRACE_ITERATIONS = 3;

export async function gateOnCriterion(
  ctx: RunContext,
  session: RunSession,
  args: VerdictArgs,
): Promise<IterationOutcome> {
  if (ctx.definition.verdict.type === 'stepMachine') return { kind: 'continue' };
  session.update(countCheck(session.state));
  if (session.state.criterionMet === undefined) {
    const decision = await decideVerdict(ctx, session, args);
    if (!decision.done) return { kind: 'continue' };
    session.update(latchCriterion(session.state, decision.reason));
  }
  const routed = ctx.definition.steps[session.state.stepId];
  const closure = routed?.stepKind === 'closure' ? routed.stepId : closureStepFor(ctx.definition, args.step.stepId);
  if (closure === undefined) {
    return {
      kind: 'failed',
      code: FailureType.FailedStepRouting,
      reason: `the completion criterion is met (${session.state.criterionMet ?? ''}) but the registry has no closure step to complete through`,
    };
  }
  log.info(`[CompletionLoop] criterion met; the flow goes to closure step ${closure}`, {
    reason: session.state.criterionMet,
    from: args.step.stepId,
  });
  session.update(goToStep(session.state, closure));
  return { kind: 'continue' };
}

/** The cap yields to the Completion loop for a few iterations once the criterion is met. */
export function withinClosureGrace(ctx: RunContext, session: RunSession): boolean {
  const { criterionMet, stepId, iteration } = session.state;
  return (
    criterionMet !== undefined &&
    ctx.definition.steps[stepId]?.stepKind === 'closure' &&
    iteration < ctx.maxIterations + CLOSURE_GRACE_ITERATIONS
  );
}
