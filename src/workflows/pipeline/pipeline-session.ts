/**
 * The pipeline workflow's one state owner: the PipelineState the query, the Web UI
 * details and the result see, changed only through the named transitions below (each
 * publishes what it changed: details, search attributes). Signals and the cycle loop
 * call these; nothing else writes the state.
 */
import { setCurrentDetails, upsertSearchAttributes } from '@temporalio/workflow';
import type { PipelineTransition } from '../../contracts/pipeline.js';
import type {
  PipelineEndStatus,
  PipelineInput,
  PipelineProgress,
  PipelineResult,
} from '../../contracts/pipeline-run.js';
import {
  PipelineAgentKey,
  PipelineCycleKey,
  PipelineOutcomeKey,
  PipelinePhaseKey,
} from './pipeline-search-attributes.js';
import { initialState, progressOf, renderPipelineDetails, resultOf, type PipelineState } from './pipeline-state.js';

export class PipelineSession {
  readonly #s: PipelineState = initialState();
  readonly #meta: { workflowId: string; issue: number; pipeline: string; maxCycles: number };

  constructor(input: PipelineInput, workflowId: string) {
    const definition = input.definition;
    this.#meta = { workflowId, issue: input.issue, pipeline: definition.id, maxCycles: definition.rules.maxCycles };
  }

  get paused(): boolean {
    return this.#s.paused;
  }
  get cancelled(): string | undefined {
    return this.#s.cancelled;
  }
  get childWorkflowId(): string | undefined {
    return this.#s.childWorkflowId;
  }
  get history(): readonly PipelineTransition[] {
    return this.#s.history;
  }

  progress(): PipelineProgress {
    return progressOf(this.#s, this.#meta);
  }

  publish(): void {
    setCurrentDetails(renderPipelineDetails(this.progress()));
  }

  pause(): void {
    this.#s.paused = true;
  }

  resume(): void {
    this.#s.paused = false;
  }

  /** An operator's cancel: false when the pipeline was already cancelled. */
  cancel(reason: string): boolean {
    if (this.#s.cancelled !== undefined) return false;
    this.#s.cancelled = reason;
    this.publish();
    return true;
  }

  /** The issue is in `phase` (read from its labels, or reached by a transition). */
  enterPhase(phase: string): void {
    if (this.#s.phase === phase) return;
    this.#s.phase = phase;
    upsertSearchAttributes([{ key: PipelinePhaseKey, value: phase }]);
  }

  /** A cycle starts: its agent runs as the child `childWorkflowId`. */
  dispatch(cycle: number, agent: string, childWorkflowId: string): void {
    this.#s.agent = agent;
    this.#s.childWorkflowId = childWorkflowId;
    this.#s.cycle = cycle;
    upsertSearchAttributes([
      { key: PipelineCycleKey, value: cycle },
      { key: PipelineAgentKey, value: agent },
    ]);
    this.publish();
  }

  /** The cycle's child run ended (or could not run). */
  childEnded(): void {
    delete this.#s.childWorkflowId;
  }

  recordOutcome(outcome: string): void {
    this.#s.lastOutcome = outcome;
    upsertSearchAttributes([{ key: PipelineOutcomeKey, value: outcome }]);
  }

  /** The cycle's effects are applied: its transition joins the history. */
  recordTransition(transition: PipelineTransition, issueClosed: boolean): void {
    if (issueClosed) this.#s.issueClosed = true;
    this.#s.history.push(transition);
    this.publish();
  }

  /** The pipeline ends: status and reason are shown; no child is running any more. */
  end(status: PipelineEndStatus, reason: string): void {
    this.#s.status = status;
    this.#s.reason = reason;
    delete this.#s.childWorkflowId;
    this.publish();
  }

  result(status: PipelineEndStatus, reason: string): PipelineResult {
    return resultOf(this.#s, this.#meta, status, reason);
  }

  /** For the log line of the end. */
  get phase(): string | undefined {
    return this.#s.phase;
  }
}
