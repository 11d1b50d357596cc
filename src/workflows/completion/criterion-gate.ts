/**
 * The completion type's criterion at a work or verification step
 * (docs/concepts.md#completion-types): it
 * decides whether the agent MAY complete, never completes it. Once met (latched in
 * RunState.criterionMet) the flow goes to a closure step, whose validated `closing`
 * is the only way to the boundary hook. stepMachine has no criterion of its own: its
 * end is the closure step's `closing`, and the Flow loop does not come here for it
 * (flow-iteration.ts).
 */
import { log } from '@temporalio/workflow';
import type { AgentDefinition } from '../../contracts/definition.js';
import { CLOSURE_GRACE_KEY } from '../../contracts/completion-types.js';
import { configNumber } from './verdict-config.js';
import { FailureType } from '../../contracts/failures.js';
import type { IterationOutcome } from '../run/iteration-outcome.js';
import type { RunSession } from '../run/state/run-session.js';
import type { RunContext } from '../run/run-context.js';
import { countCheck, goToStep, latchCriterion } from '../run/state/run-transitions.js';
import { closureStepFor } from './closure-target.js';
import { decideVerdict, type VerdictArgs } from './verdict-check.js';

/** The agent's grace past the cap (default 0: the cap is exact). PURE. */
export function closureGrace(definition: AgentDefinition): number {
  return Math.max(0, Math.floor(configNumber(definition.verdict.config, CLOSURE_GRACE_KEY, 0)));
}

export async function gateOnCriterion(
  ctx: RunContext,
  session: RunSession,
  args: VerdictArgs,
): Promise<IterationOutcome> {
  session.apply(countCheck);
  if (session.state.criterionMet === undefined) {
    const decision = await decideVerdict(ctx, session, args);
    if (!decision.done) return { kind: 'continue' };
    session.apply(latchCriterion, decision.reason);
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
  session.apply(goToStep, closure);
  return { kind: 'continue' };
}

/**
 * The cap is exact unless the agent configures `closureGrace`: then, once the criterion
 * is met, a run at a closure step may take that many iterations past it for the
 * Completion loop.
 */
export function withinClosureGrace(ctx: RunContext, session: RunSession): boolean {
  const { criterionMet, stepId, iteration } = session.state;
  if (criterionMet === undefined || ctx.definition.steps[stepId]?.stepKind !== 'closure') return false;
  return iteration < ctx.maxIterations + closureGrace(ctx.definition);
}
