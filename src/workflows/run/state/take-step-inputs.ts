/**
 * What a model step takes out of the run's state before it runs, in one transition: the
 * operator's guidance, a verdict's retry addendum, a retry prompt and a person's answer,
 * each cleared so the next step does not see it again (a step that does not run to an
 * answer puts them back: schedule-query-step.ts `keepForRerun`).
 */
import type { AnsweredQuestion } from '../../../contracts/human-loop.js';
import type { RunState } from './run-state.js';

/** Takes the operator's guidance, if any, clearing it from state. */
export function takeGuidance(state: RunState): { state: RunState; guidance?: string } {
  if (state.operatorGuidance === undefined) return { state };
  const { operatorGuidance, ...rest } = state;
  return { state: rest, guidance: operatorGuidance };
}

/** Takes the pending retry addendum (a verdict's retry prompt), if any, clearing it from state. */
export function takeRetryAddendum(state: RunState): { state: RunState; addendum?: string } {
  if (state.pendingRetryAddendum === undefined) return { state };
  const { pendingRetryAddendum, ...rest } = state;
  return { state: rest, addendum: pendingRetryAddendum };
}

/** Takes the pending retry prompt, if any, clearing it from state. */
export function takeRetryPrompt(state: RunState): { state: RunState; prompt?: string } {
  if (state.pendingRetryPrompt === undefined) return { state };
  const { pendingRetryPrompt, ...rest } = state;
  return { state: rest, prompt: pendingRetryPrompt };
}

/** Takes a person's answer to the model's question, if any, clearing it from state. */
export function takeAnswer(state: RunState): { state: RunState; answer?: AnsweredQuestion } {
  if (state.pendingAnswer === undefined) return { state };
  const { pendingAnswer, ...rest } = state;
  return { state: rest, answer: pendingAnswer };
}

export interface TakenStepInputs {
  readonly guidance?: string;
  readonly addendum?: string;
  readonly prompt?: string;
  readonly answer?: AnsweredQuestion;
}

export function takeStepInputs(state: RunState): { state: RunState } & TakenStepInputs {
  const { guidance, state: s1 } = takeGuidance(state);
  const { addendum, state: s2 } = takeRetryAddendum(s1);
  const { prompt, state: s3 } = takeRetryPrompt(s2);
  const { answer, state: s4 } = takeAnswer(s3);
  return {
    state: s4,
    ...(guidance === undefined ? {} : { guidance }),
    ...(addendum === undefined ? {} : { addendum }),
    ...(prompt === undefined ? {} : { prompt }),
    ...(answer === undefined ? {} : { answer }),
  };
}
