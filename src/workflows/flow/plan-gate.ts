/**
 * Plan approval in the Flow loop (issue 40): with a `planApproval` policy, the agent's
 * entry step is the plan. While the plan is not approved that step runs read-only (the
 * worktree is mounted read-only in its sandbox), so no file changes before `/approve`; when
 * it routes on and the policy asks for approval (always, or by the files the plan names),
 * the iteration ends with the plan and the step it would go to, and the run waits for a
 * person (run/state/plan-wait.ts). Runs without a policy never reach any of this.
 */
import type { StepDefinition } from '../../contracts/definition.js';
import { approvalReason, planFiles } from '../../contracts/plan-approval.js';
import type { IterationOutcome } from '../run/iteration-outcome.js';
import type { RunContext } from '../run/run-context.js';
import type { RunSession } from '../run/state/run-session.js';

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
