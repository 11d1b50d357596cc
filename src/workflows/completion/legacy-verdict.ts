/**
 * The verdict as runs recorded before the `completion-via-closure` patch decided it:
 * after every iteration the completion type was consulted, and a done verdict ended
 * the run (conditions, then the boundary hook) even from a work step. Kept ONLY so
 * those histories replay with the same commands; new runs never come here (seed 000:
 * only a closure step's validated `closing` completes the agent, see closing-verdict).
 */
import { log } from '@temporalio/workflow';
import type { ConditionResult } from '../../contracts/activities.js';
import { runCompletionConditions } from './completion-loop.js';
import { finishRun } from '../deliver/deliver-after-closing.js';
import { countCheck, sendBackToStep } from '../run/state/run-transitions.js';
import { decideVerdict, type VerdictArgs } from './verdict-check.js';
import type { IterationOutcome } from '../run/iteration-outcome.js';
import type { RunSession } from '../run/state/run-session.js';
import type { RunContext } from '../run/run-context.js';

export async function legacyVerdict(
  ctx: RunContext,
  session: RunSession,
  args: VerdictArgs,
  closingEvidence: readonly ConditionResult[],
): Promise<IterationOutcome> {
  const { step, output, closingValidated } = args;
  let evidence = closingEvidence;
  session.update(countCheck(session.state));
  const decision = await decideVerdict(ctx, session, args);
  if (decision.done) {
    if (!closingValidated) {
      const conditions = await runCompletionConditions(ctx, session, step.stepId);
      if (conditions.kind !== 'passed') return conditions;
      evidence = conditions.evidence;
    }
    return finishRun(ctx, session, output, evidence, decision.reason);
  }
  if (closingValidated) {
    const back =
      step.transitions.repeat !== undefined && 'target' in step.transitions.repeat
        ? step.transitions.repeat.target
        : null;
    log.info('[CompletionLoop] verdict not done after a validated closing', { reason: decision.reason });
    session.update(sendBackToStep(session.state, back ?? step.stepId, decision.reason));
  }
  return { kind: 'continue' };
}
