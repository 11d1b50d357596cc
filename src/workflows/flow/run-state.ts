/**
 * RunState: everything the run workflow knows, as one plain serialisable value with
 * pure transitions. The workflow function only wires handlers and sequences calls.
 */
import type { RunPhase, StepRecord } from '../../contracts/run.js';
import { addUsage, totalTokens, type RunBudget, type Usage, ZERO_USAGE } from '../../contracts/usage.js';
import { EMPTY_STEP_CONTEXT, type StepContext } from './step-context.js';

export interface RunState {
  readonly phase: RunPhase;
  readonly iteration: number;
  readonly stepId: string;
  readonly stepContext: StepContext;
  /** A retry prompt from the Completion loop: the next iteration's prompt. */
  readonly pendingRetryPrompt?: string;
  /** Guidance from an operator's retry: added to the next iteration's prompt. */
  readonly operatorGuidance?: string;
  readonly consecutiveSchemaFailures: number;
  /** Completion attempts that failed validation, per completion step. */
  readonly completionAttempts: Readonly<Record<string, number>>;
  readonly checkCount: number;
  /**
   * Why the completion type's criterion allows the agent to complete, once it was met
   * at a work or verification step (latched). It never completes the agent by itself:
   * it sends the flow to a closure step, whose validated `closing` completes (seed 000).
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

/** Keeps the last N step records in state (the query and history stay small). */
const MAX_STEP_RECORDS = 50;

export function recordStep(state: RunState, record: StepRecord): RunState {
  const steps = [...state.steps, record].slice(-MAX_STEP_RECORDS);
  return {
    ...state,
    ...(record.checkpoint === undefined ? {} : { worktreeCheckpoint: record.checkpoint }),
    steps,
    usage: addUsage(state.usage, record.usage),
    costUsd: state.costUsd + record.costUsd,
    previousSummary: record.summary,
  };
}

/** Takes the pending retry prompt, if any, clearing it from state. */
export function takeRetryPrompt(state: RunState): { state: RunState; prompt?: string } {
  if (state.pendingRetryPrompt === undefined) return { state };
  const { pendingRetryPrompt, ...rest } = state;
  return { state: rest, prompt: pendingRetryPrompt };
}

/** Takes the operator's guidance, if any, clearing it from state. */
export function takeGuidance(state: RunState): { state: RunState; guidance?: string } {
  if (state.operatorGuidance === undefined) return { state };
  const { operatorGuidance, ...rest } = state;
  return { state: rest, guidance: operatorGuidance };
}

export function countCompletionFailure(state: RunState, completionStepId: string): RunState {
  const attempts = (state.completionAttempts[completionStepId] ?? 0) + 1;
  return { ...state, completionAttempts: { ...state.completionAttempts, [completionStepId]: attempts } };
}

export type BudgetStatus = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** Fail-closed: checked before every step's model calls. */
export function budgetStatus(state: RunState): BudgetStatus {
  const { maxUsd, maxTokens } = state.budget;
  if (maxUsd !== undefined && state.costUsd >= maxUsd) {
    return { ok: false, reason: `cost $${state.costUsd.toFixed(4)} reached the budget of $${maxUsd}` };
  }
  const used = totalTokens(state.usage);
  if (maxTokens !== undefined && used >= maxTokens) {
    return { ok: false, reason: `${used} tokens reached the budget of ${maxTokens}` };
  }
  return { ok: true };
}

/** What is left of the budget, handed to the step query so it can stop mid-step. */
export function remainingBudget(state: RunState): RunBudget {
  const { maxUsd, maxTokens, maxTurnsPerStep } = state.budget;
  return {
    ...(maxUsd === undefined ? {} : { maxUsd: Math.max(0, maxUsd - state.costUsd) }),
    ...(maxTokens === undefined ? {} : { maxTokens: Math.max(0, maxTokens - totalTokens(state.usage)) }),
    ...(maxTurnsPerStep === undefined ? {} : { maxTurnsPerStep }),
  };
}

export function raiseBudget(state: RunState, budget: RunBudget): RunState {
  return { ...state, budget: { ...state.budget, ...budget } };
}
