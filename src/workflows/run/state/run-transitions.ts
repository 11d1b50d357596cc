/**
 * The named transitions of RunState: every change of the run's state is one of these
 * pure functions, applied by RunSession.update. A name says what happened in the run
 * (a step answered, a check counted, the flow sent back), so no caller copies the state.
 */
import type { AnsweredQuestion, AskedQuestion, HumanAnswer, RunWaiting } from '../../../contracts/human-loop.js';
import { isApproval } from '../../../contracts/plan-approval.js';
import type { StepKind } from '../../../contracts/intents.js';
import { isJsonObject } from '../../../contracts/json.js';
import type { RunPhase, StepRecord } from '../../../contracts/run.js';
import { addUsage, type RunBudget, type Usage } from '../../../contracts/usage.js';
import { recordHandoff, type Handoff, type RunState, type StepContext } from './run-state.js';

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

/** The completion conditions judged this iteration's closing step: their word joins its record. */
export function noteChecks(state: RunState, stepId: string, checks: string): RunState {
  const last = state.steps.at(-1);
  if (last === undefined || last.stepId !== stepId || last.iteration !== state.iteration) return state;
  return { ...state, steps: [...state.steps.slice(0, -1), { ...last, checks }] };
}

/** The harness's environment.setup step spent this; it is not one of the agent's steps, so no record. */
export function environmentStepSpent(state: RunState, usage: Usage, costUsd: number): RunState {
  return { ...state, usage: addUsage(state.usage, usage), costUsd: state.costUsd + costUsd };
}

/** A person answered the model's question: the asking step runs again with the answer quoted. */
export function answerQuestion(state: RunState, answer: AnsweredQuestion): RunState {
  return { ...state, pendingAnswer: answer };
}

/**
 * A person's answer to what the run waits on: `/approve` of a plan moves the flow on to the
 * step the plan routed to; anything else (an answer, a change request) is quoted in the
 * waiting step's next prompt.
 */
export function answerWait(state: RunState, waiting: RunWaiting, answer: HumanAnswer): RunState {
  if (waiting.kind === 'plan' && isApproval(answer.text) && waiting.next !== undefined)
    return { ...state, planApproved: true, stepId: waiting.next };
  return answerQuestion(state, { question: waiting.reason, ...answer });
}

export function countCompletionFailure(state: RunState, completionStepId: string): RunState {
  const attempts = (state.completionAttempts[completionStepId] ?? 0) + 1;
  return { ...state, completionAttempts: { ...state.completionAttempts, [completionStepId]: attempts } };
}

/** Raises the limits; the soft USD limit never past the hard one (which is not raised here). */
export function raiseBudget(state: RunState, budget: RunBudget): RunState {
  const hard = state.budget.hardMaxUsd;
  const raised = { ...state.budget, ...budget, ...(hard === undefined ? {} : { hardMaxUsd: hard }) };
  const capped = hard !== undefined && raised.maxUsd !== undefined && raised.maxUsd > hard;
  return { ...state, budget: capped ? { ...raised, maxUsd: hard } : raised };
}

export function withPhase(state: RunState, phase: RunPhase): RunState {
  return { ...state, phase };
}

/** Where the loaded run starts: the entry step, or where a failed run it resumes stopped. */
export function startAt(
  state: RunState,
  start: { readonly stepId: string; readonly stepContext?: StepContext; readonly budget: RunBudget },
): RunState {
  return {
    ...state,
    stepId: start.stepId,
    ...(start.stepContext === undefined ? {} : { stepContext: start.stepContext }),
    budget: start.budget,
  };
}

/** An iteration starts at a step: a closure step's iteration is the run's closure phase. */
export function beginIteration(state: RunState, iteration: number, stepKind: StepKind): RunState {
  return { ...state, iteration, phase: stepKind === 'closure' ? 'closure' : 'flow' };
}

/** A step stopped by the budget did not complete: it keeps its iteration number for its rerun. */
export function uncountIteration(state: RunState, iteration: number): RunState {
  return { ...state, iteration: iteration - 1 };
}

/** A step answered and its gate passed: its handoff joins the StepContext, its record the steps. */
export function recordAnsweredStep(state: RunState, handoff: Handoff, record: StepRecord): RunState {
  return recordStep({ ...state, stepContext: recordHandoff(state.stepContext, record.stepId, handoff) }, record);
}

export function goToStep(state: RunState, stepId: string): RunState {
  return { ...state, stepId };
}

/** Not done: the flow goes on at `stepId`, with the reason shown as the last error. */
export function sendBackToStep(state: RunState, stepId: string, reason: string): RunState {
  return { ...state, stepId, lastError: reason };
}

/**
 * Not done (stage 3): the flow goes on at `stepId` and the verdict's retry prompt is
 * added to that step's next prompt; the reason is also the last error.
 */
export function sendBackWithRetry(state: RunState, stepId: string, reason: string, retryPrompt: string): RunState {
  return { ...state, stepId, lastError: reason, pendingRetryAddendum: retryPrompt };
}

/** A step that did not answer (schema failure) runs again with what it was given. */
export function keepForRerun(state: RunState, rerun: StepRerun): RunState {
  return { ...state, ...rerun };
}

export function noteError(state: RunState, message: string): RunState {
  return { ...state, lastError: message };
}

/** A schema failure (resolution or an invalid final answer): counted toward schema fail-fast. */
export function countSchemaFailure(state: RunState, message: string): RunState {
  return { ...state, consecutiveSchemaFailures: state.consecutiveSchemaFailures + 1, lastError: message };
}

/** The model answered: schema failures start over, and the worktree is at the step's checkpoint. */
export function stepAnswered(state: RunState, worktreeCheckpoint: string | undefined): RunState {
  return {
    ...state,
    consecutiveSchemaFailures: 0,
    ...(worktreeCheckpoint === undefined ? {} : { worktreeCheckpoint }),
  };
}

/** What a step stopped by the budget runs again with once the budget is raised. */
export interface StepRerun {
  readonly pendingRetryPrompt?: string;
  readonly pendingRetryAddendum?: string;
  readonly operatorGuidance?: string;
  readonly pendingAnswer?: AnsweredQuestion;
}

/** What a model step takes out of the state before it runs (see takeStepInputs). */
export interface TakenStepInputs {
  readonly guidance?: string;
  readonly addendum?: string;
  readonly prompt?: string;
  readonly answer?: AnsweredQuestion;
}

/**
 * A model step starts: it takes the operator's guidance, a verdict's retry addendum, a retry
 * prompt and a person's answer, each cleared so the next step does not see it again (a step
 * that does not run to an answer puts them back: `keepForRerun`, `stopOnBudget`).
 */
export function takeStepInputs(state: RunState): { state: RunState } & TakenStepInputs {
  const {
    operatorGuidance: guidance,
    pendingRetryAddendum: addendum,
    pendingRetryPrompt: prompt,
    pendingAnswer: answer,
    ...rest
  } = state;
  return {
    state: rest,
    ...(guidance === undefined ? {} : { guidance }),
    ...(addendum === undefined ? {} : { addendum }),
    ...(prompt === undefined ? {} : { prompt }),
    ...(answer === undefined ? {} : { answer }),
  };
}

/**
 * A step stopped by the budget: it keeps what it runs again with, and its partial spend
 * (tokens as input, cost as reported in the failure's details) is recorded.
 */
export function stopOnBudget(
  state: RunState,
  rerun: StepRerun,
  step: { readonly stepId: string; readonly stepKind: StepKind },
  details: unknown,
): RunState {
  const kept: RunState = keepForRerun(state, rerun);
  const d = isJsonObject(details) ? details : {};
  const tokens = typeof d['usedTokens'] === 'number' ? d['usedTokens'] : 0;
  const cost = typeof d['usedUsd'] === 'number' ? d['usedUsd'] : 0;
  if (tokens === 0 && cost === 0) return kept;
  return recordStep(kept, {
    iteration: kept.iteration,
    stepId: step.stepId,
    stepKind: step.stepKind,
    summary: 'stopped by the budget before its next model call (partial spend)',
    usage: { inputTokens: tokens, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    costUsd: cost,
    turns: 0,
  });
}

/**
 * A step ended at the model's `ask`: it did not complete, so it keeps what it runs again
 * with (and its iteration number), and what it spent is recorded.
 */
export function stopOnQuestion(
  state: RunState,
  rerun: StepRerun,
  step: { readonly stepId: string; readonly stepKind: StepKind },
  spent: Pick<StepRecord, 'usage' | 'costUsd' | 'turns' | 'transcript' | 'checkpoint'>,
  question: AskedQuestion,
): RunState {
  return recordStep(keepForRerun(state, rerun), {
    iteration: state.iteration,
    stepId: step.stepId,
    stepKind: step.stepKind,
    summary: `asked: ${question.question.slice(0, 200)}`,
    ...spent,
  });
}

/** The completion type was consulted once more (checkBudget counts these). */
export function countCheck(state: RunState): RunState {
  return { ...state, checkCount: state.checkCount + 1 };
}

/** The completion criterion is met: latched, it sends the flow to a closure step. */
export function latchCriterion(state: RunState, reason: string): RunState {
  return { ...state, criterionMet: reason };
}

/** Completion conditions failed: their retry prompt is the next iteration's prompt. */
export function awaitRetryPrompt(state: RunState, prompt: string, failures: string): RunState {
  return { ...state, pendingRetryPrompt: prompt, lastError: failures };
}

/** An operator's retry guidance, added to the next iteration's prompt. */
export function addGuidance(state: RunState, guidance: string): RunState {
  return { ...state, operatorGuidance: guidance };
}

/** The run ended: its final phase, and for a failure the code and reason as the last error. */
export function endRun(state: RunState, phase: RunPhase, failure?: string): RunState {
  return { ...state, phase, ...(failure === undefined ? {} : { lastError: failure }) };
}
