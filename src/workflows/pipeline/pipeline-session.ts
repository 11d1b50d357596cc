/**
 * The pipeline workflow's one state owner (the shape of session/state-owner.ts): the
 * PipelineState the query, the Web UI details and the result see, changed only by the
 * named transitions of pipeline/state/ through the event-named methods below; each
 * publishes what it changed (details, search attributes) in the order the workflow
 * always issued them (a search attribute upsert is a command: replay checks it).
 */
import { setCurrentDetails, upsertSearchAttributes } from '@temporalio/workflow';
import type { PipelineTransition } from '../../contracts/pipeline.js';
import type {
  PipelineEndStatus,
  PipelineInput,
  PipelineProgress,
  PipelineResult,
} from '../../contracts/pipeline-run.js';
import { StateOwner } from '../session/state-owner.js';
import {
  PipelineAgentKey,
  PipelineCycleKey,
  PipelineOutcomeKey,
  PipelinePhaseKey,
} from './pipeline-search-attributes.js';
import {
  initialPipelineState,
  progressOf,
  renderPipelineDetails,
  resultOf,
  type PipelineState,
} from './state/pipeline-state.js';
import {
  agentDispatched,
  cancelRequested,
  childEnded,
  outcomeRecorded,
  pauseRequested,
  phaseEntered,
  pipelineEnded,
  resumeRequested,
  transitionRecorded,
} from './state/pipeline-transitions.js';

export class PipelineSession extends StateOwner<PipelineState> {
  readonly #meta: { workflowId: string; issue: number; pipeline: string; maxCycles: number };

  constructor(input: PipelineInput, workflowId: string) {
    super(initialPipelineState());
    const definition = input.definition;
    this.#meta = { workflowId, issue: input.issue, pipeline: definition.id, maxCycles: definition.rules.maxCycles };
  }

  get paused(): boolean {
    return this.state.paused;
  }
  get cancelled(): string | undefined {
    return this.state.cancelled;
  }
  get childWorkflowId(): string | undefined {
    return this.state.childWorkflowId;
  }
  get history(): readonly PipelineTransition[] {
    return this.state.history;
  }
  /** For the log line of the end. */
  get phase(): string | undefined {
    return this.state.phase;
  }

  progress(): PipelineProgress {
    return progressOf(this.state, this.#meta);
  }

  publish(): void {
    setCurrentDetails(renderPipelineDetails(this.progress()));
  }

  pause(): void {
    this.apply(pauseRequested);
  }

  resume(): void {
    this.apply(resumeRequested);
  }

  /** An operator's cancel: false when the pipeline was already cancelled. */
  cancel(reason: string): boolean {
    if (this.state.cancelled !== undefined) return false;
    this.apply(cancelRequested, reason);
    this.publish();
    return true;
  }

  /** The issue is in `phase` (read from its labels, or reached by a transition). */
  enterPhase(phase: string): void {
    if (this.state.phase === phase) return;
    this.apply(phaseEntered, phase);
    upsertSearchAttributes([{ key: PipelinePhaseKey, value: phase }]);
  }

  /** A cycle starts: its agent runs as the child `childWorkflowId`. */
  dispatch(cycle: number, agent: string, childWorkflowId: string): void {
    this.apply(agentDispatched, cycle, agent, childWorkflowId);
    upsertSearchAttributes([
      { key: PipelineCycleKey, value: cycle },
      { key: PipelineAgentKey, value: agent },
    ]);
    this.publish();
  }

  /** The cycle's child run ended (or could not run). */
  childEnded(): void {
    this.apply(childEnded);
  }

  recordOutcome(outcome: string): void {
    this.apply(outcomeRecorded, outcome);
    upsertSearchAttributes([{ key: PipelineOutcomeKey, value: outcome }]);
  }

  /** The cycle's effects are applied: its transition joins the history. */
  recordTransition(transition: PipelineTransition, issueClosed: boolean): void {
    this.apply(transitionRecorded, transition, issueClosed);
    this.publish();
  }

  /** The pipeline ends: status and reason are shown; no child is running any more. */
  end(status: PipelineEndStatus, reason: string): void {
    this.apply(pipelineEnded, status, reason);
    this.publish();
  }

  result(status: PipelineEndStatus, reason: string): PipelineResult {
    return resultOf(this.state, this.#meta, status, reason);
  }
}
