/**
 * The pipeline's named transitions, pure: each is one event of the cycle loop or of an
 * operator's signal. pipeline-session.ts applies them and publishes what they changed.
 */
import type { PipelineTransition } from '../../../contracts/pipeline.js';
import type { PipelineEndStatus } from '../../../contracts/pipeline-run.js';
import type { PipelineState } from './pipeline-state.js';

/** The state without the child run: none is running any more. */
function withoutChild(state: PipelineState): PipelineState {
  const { childWorkflowId: _ended, ...rest } = state;
  return rest;
}

export function pauseRequested(state: PipelineState): PipelineState {
  return { ...state, paused: true };
}

export function resumeRequested(state: PipelineState): PipelineState {
  return { ...state, paused: false };
}

/** An operator's cancel, with its reason. */
export function cancelRequested(state: PipelineState, reason: string): PipelineState {
  return { ...state, cancelled: reason };
}

/** The issue is in `phase` (read from its labels, or reached by a transition). */
export function phaseEntered(state: PipelineState, phase: string): PipelineState {
  return { ...state, phase };
}

/** A cycle starts: its agent runs as the child `childWorkflowId`. */
export function agentDispatched(
  state: PipelineState,
  cycle: number,
  agent: string,
  childWorkflowId: string,
): PipelineState {
  return { ...state, agent, childWorkflowId, cycle };
}

/** The cycle's child run ended (or could not run). */
export function childEnded(state: PipelineState): PipelineState {
  return withoutChild(state);
}

export function outcomeRecorded(state: PipelineState, outcome: string): PipelineState {
  return { ...state, lastOutcome: outcome };
}

/** The cycle's effects are applied: its transition joins the history (and the issue may be closed). */
export function transitionRecorded(
  state: PipelineState,
  transition: PipelineTransition,
  issueClosed: boolean,
): PipelineState {
  return { ...state, history: [...state.history, transition], issueClosed: state.issueClosed || issueClosed };
}

/** The pipeline ends with a status and its reason. */
export function pipelineEnded(state: PipelineState, status: PipelineEndStatus, reason: string): PipelineState {
  return { ...withoutChild(state), status, reason };
}
