/**
 * Stage 3 of the Completion loop (docs/concepts.md#completion-loop), after a closure
 * step's `closing` passed its completion conditions. The completion type decides whether the agent may
 * complete; only here do boundary effects happen.
 *
 *   stepMachine        done: the step machine reached its end.
 *   externalState      the state is read: reached → boundary → done; not yet →
 *                      read again after a durable timer (`pollIntervalMs`, default 60 s),
 *                      up to `maxPolls` (default 10) times, then back to the flow. No
 *                      boundary effect happens before the state is confirmed reached:
 *                      the state is the world's answer (someone closed the issue), and
 *                      the run's own delivery (which may close the issue) must not be
 *                      counted as that answer (docs/concepts.md#boundary: it runs only
 *                      after the verdict).
 *   other types        done when the criterion was met (latched at a work step, or met
 *                      now); otherwise back to the flow, with no boundary effect.
 *   composite          as its children; polls when one of them reads external state.
 */
import { log, sleep } from '@temporalio/workflow';
import type { ConditionResult } from '../../contracts/activities.js';
import type { VerdictSpec } from '../../contracts/definition.js';
import type { IterationOutcome } from '../run/iteration-outcome.js';
import type { RunSession } from '../run/state/run-session.js';
import type { RunContext } from '../run/run-context.js';
import { finishRun } from '../deliver/deliver-after-closing.js';
import { sendBackWithRetry } from '../run/state/run-transitions.js';
import { buildVerdictRetry } from './verdict-retry.js';
import { verdictNeeds } from './evaluate-verdict.js';
import { configNumber } from './verdict-config.js';
import { decideVerdict, type VerdictArgs } from './verdict-check.js';
import type { VerdictDecision } from './verdict-types.js';

export const DEFAULT_POLL_INTERVAL_MS = 60_000;
export const DEFAULT_MAX_POLLS = 10;

/** Poll settings: the verdict's own config, else the first externalState child's. */
export function pollSettings(spec: VerdictSpec): { intervalMs: number; maxPolls: number } {
  const external = [spec, ...(spec.children ?? [])].find((s) => s.type === 'externalState') ?? spec;
  const read = (key: string, fallback: number): number =>
    configNumber(spec.config, key, configNumber(external.config, key, fallback));
  return {
    intervalMs: read('pollIntervalMs', DEFAULT_POLL_INTERVAL_MS),
    maxPolls: read('maxPolls', DEFAULT_MAX_POLLS),
  };
}

/**
 * Not done: the flow goes on at the closure step's `repeat` target (or the closure step),
 * and that step's next prompt says why (the verdict's retry prompt, verdict-retry.ts).
 */
async function backToFlow(
  ctx: RunContext,
  session: RunSession,
  args: VerdictArgs,
  reason: string,
): Promise<IterationOutcome> {
  const rule = args.step.transitions.repeat;
  const back = rule !== undefined && 'target' in rule && rule.target !== null ? rule.target : args.step.stepId;
  log.info('[CompletionLoop] verdict: not done; back to the flow', { reason, next: back });
  const retry = await buildVerdictRetry(ctx.definition, args.step.stepId, reason, back);
  session.apply(sendBackWithRetry, back, reason, retry);
  return { kind: 'continue' };
}

export async function verdictAfterClosing(
  ctx: RunContext,
  session: RunSession,
  args: VerdictArgs,
  evidence: readonly ConditionResult[],
): Promise<IterationOutcome> {
  const spec = ctx.definition.verdict;
  if (spec.type === 'stepMachine') {
    return finishRun(
      ctx,
      session,
      args.output,
      evidence,
      `Closure step ${args.step.stepId} signalled closing and the completion conditions passed.`,
    );
  }
  const latched = session.state.criterionMet;
  const decision = latched === undefined ? await decideVerdict(ctx, session, args) : { done: true, reason: latched };
  log.info('[CompletionLoop] verdict', { done: decision.done, reason: decision.reason });
  if (decision.done) return finishRun(ctx, session, args.output, evidence, decision.reason);
  if (!verdictNeeds(spec).externalState) return backToFlow(ctx, session, args, decision.reason);
  return pollThenDeliver(ctx, session, args, evidence, decision);
}

/**
 * externalState not reached at the closing: read the state again after a durable timer,
 * up to `maxPolls` times. Reached → boundary → done; never reached → back to the flow,
 * with nothing delivered (no push, merge, PR, comment, label or close).
 */
async function pollThenDeliver(
  ctx: RunContext,
  session: RunSession,
  args: VerdictArgs,
  evidence: readonly ConditionResult[],
  first: VerdictDecision,
): Promise<IterationOutcome> {
  const { intervalMs, maxPolls } = pollSettings(ctx.definition.verdict);
  let now = first;
  for (let poll = 1; poll <= maxPolls; poll++) {
    log.info('[CompletionLoop] target state not reached; nothing delivered; polling', {
      reason: now.reason,
      poll,
      intervalMs,
    });
    session.setPhase('validating');
    await sleep(intervalMs);
    now = await decideVerdict(ctx, session, args);
    if (now.done) return finishRun(ctx, session, args.output, evidence, now.reason);
  }
  const why = `the target state was not reached after ${maxPolls} poll(s), so nothing was delivered: ${now.reason}`;
  return backToFlow(ctx, session, args, why);
}
