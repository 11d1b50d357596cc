/**
 * RunState: everything the run workflow knows, as one plain serialisable value. Its
 * changes are the named transitions of run-transitions.ts, applied only through
 * RunSession.update; here are the type, the start value, the StepContext it carries and
 * what reads the budget.
 *
 * StepContext: the handoff data steps pass forward (docs/concepts.md#stepcontext). Each
 * step's handoff is stored under its stepId and exposed to later prompts as
 * `uv-<stepId>_<key>` (contracts/step-inputs.ts `toUvVariables`). Nothing outside a
 * declared handoff reaches a later step.
 */
import type { AnsweredQuestion } from '../../../contracts/human-loop.js';
import type { RunPhase, StepRecord } from '../../../contracts/run.js';
import {
  atHardLimit,
  totalTokens,
  usdLimit,
  type RunBudget,
  type Usage,
  ZERO_USAGE,
} from '../../../contracts/usage.js';
import type { JsonValue } from '../../../contracts/json.js';

export type Handoff = Readonly<Record<string, JsonValue>>;
export type StepContext = Readonly<Record<string, Handoff>>;

export const EMPTY_STEP_CONTEXT: StepContext = {};

/** Replaces the step's previous handoff (a repeated step reports its latest findings). */
export function recordHandoff(context: StepContext, stepId: string, handoff: Handoff): StepContext {
  if (Object.keys(handoff).length === 0) return context;
  return { ...context, [stepId]: handoff };
}

export interface RunState {
  readonly phase: RunPhase;
  readonly iteration: number;
  readonly stepId: string;
  readonly stepContext: StepContext;
  /** A retry prompt from the Completion loop: the next iteration's prompt. */
  readonly pendingRetryPrompt?: string;
  /**
   * A retry prompt from a verdict that did not accept a validated closing (stage 3): added
   * after the next iteration's own prompt, so the step the flow goes back to keeps its
   * instructions and the model learns why it is there.
   */
  readonly pendingRetryAddendum?: string;
  /** Guidance from an operator's retry: added to the next iteration's prompt. */
  readonly operatorGuidance?: string;
  /** A person's answer to the model's question: quoted in the asking step's next prompt. */
  readonly pendingAnswer?: AnsweredQuestion;
  /** A person approved the entry step's plan (`/approve`): the run goes on past it and may write. */
  readonly planApproved?: boolean;
  readonly consecutiveSchemaFailures: number;
  /** Completion attempts that failed validation, per completion step. */
  readonly completionAttempts: Readonly<Record<string, number>>;
  readonly checkCount: number;
  /**
   * Why the completion type's criterion allows the agent to complete, once it was met
   * at a work or verification step (latched). It never completes the agent by itself:
   * it sends the flow to a closure step, whose validated `closing` completes
   * (docs/concepts.md#completion-types).
   */
  readonly criterionMet?: string;
  readonly usage: Usage;
  readonly costUsd: number;
  readonly budget: RunBudget;
  readonly steps: readonly StepRecord[];
  readonly previousSummary: string;
  readonly lastError?: string;
  /**
   * The worktree checkpoint of the last step that recorded one: each step activity gets it
   * as the state the worktree must be in (after a reset, it restores it first).
   */
  readonly worktreeCheckpoint?: string;
}

export function initialRunState(entryStep: string, budget: RunBudget): RunState {
  return {
    phase: 'loading',
    iteration: 0,
    stepId: entryStep,
    stepContext: EMPTY_STEP_CONTEXT,
    consecutiveSchemaFailures: 0,
    completionAttempts: {},
    checkCount: 0,
    usage: ZERO_USAGE,
    costUsd: 0,
    budget,
    steps: [],
    previousSummary: '',
  };
}

export type BudgetStatus = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** Fail-closed: checked before every step's model calls. */
export function budgetStatus(state: RunState): BudgetStatus {
  const { maxTokens } = state.budget;
  const maxUsd = usdLimit(state.budget);
  if (maxUsd !== undefined && state.costUsd >= maxUsd) {
    const which = atHardLimit(state.budget, state.costUsd) ? 'hard limit' : 'budget';
    return { ok: false, reason: `cost $${state.costUsd.toFixed(4)} reached the ${which} of $${maxUsd}` };
  }
  const used = totalTokens(state.usage);
  if (maxTokens !== undefined && used >= maxTokens) {
    return { ok: false, reason: `${used} tokens reached the budget of ${maxTokens}` };
  }
  return { ok: true };
}

/** What is left of the budget, handed to the step query so it can stop mid-step. */
export function remainingBudget(state: RunState): RunBudget {
  const { maxTokens, maxTurnsPerStep } = state.budget;
  const maxUsd = usdLimit(state.budget);
  return {
    ...(maxUsd === undefined ? {} : { maxUsd: Math.max(0, maxUsd - state.costUsd) }),
    ...(maxTokens === undefined ? {} : { maxTokens: Math.max(0, maxTokens - totalTokens(state.usage)) }),
    ...(maxTurnsPerStep === undefined ? {} : { maxTurnsPerStep }),
  };
}

/** The run continued as new: its state is the one the previous run carried. */
export function carriedState(_state: RunState, carried: RunState): RunState {
  return carried;
}
