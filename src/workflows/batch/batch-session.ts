/**
 * The batch workflow's one state owner: phase, queue, active children, results, the
 * concurrency seen, the cancel reason. The query reads it, the cancel signal and the
 * loop change it only through its named transitions; every change the main loop waits
 * for bumps `version` and republishes the Web UI details.
 */
import { setCurrentDetails } from '@temporalio/workflow';
import type {
  BatchCarry,
  BatchInput,
  BatchIssueProgress,
  BatchIssueRef,
  BatchIssueResult,
  BatchPhase,
  BatchProgress,
  BatchResult,
} from '../../contracts/batch.js';
import { batchResult, buildProgress, renderBatchDetails } from './batch-report.js';

export class BatchSession {
  #phase: BatchPhase;
  #queue: BatchIssueRef[];
  readonly #results: BatchIssueResult[];
  readonly #active = new Map<number, BatchIssueProgress>();
  #maxConcurrent: number;
  #inFlight = 0;
  #cancelled: string | undefined;
  /** Bumped on every change the main loop waits for. */
  #version = 0;
  readonly #generation: number;

  constructor(
    readonly input: BatchInput,
    readonly workflowId: string,
  ) {
    const carry = input.carry;
    this.#phase = carry ? 'running' : 'selecting';
    this.#queue = carry ? [...carry.queue] : [];
    this.#results = carry ? [...carry.results] : [];
    this.#maxConcurrent = carry?.maxConcurrent ?? 0;
    this.#cancelled = carry?.cancelled;
    this.#generation = carry?.generation ?? 0;
  }

  /** Keyed by repository as start-run's runs (batches recorded before repoId keep their IDs). */
  childId(issue: number): string {
    return this.input.repoId === undefined
      ? `${this.input.agentName}-issue-${issue}`
      : `${this.input.repoId}/${this.input.agentName}/issue-${issue}`;
  }

  get phase(): BatchPhase {
    return this.#phase;
  }
  get cancelled(): string | undefined {
    return this.#cancelled;
  }
  get version(): number {
    return this.#version;
  }
  get queued(): number {
    return this.#queue.length;
  }
  /** The children being started or running, as the cancel forwards to them. */
  get active(): readonly BatchIssueProgress[] {
    return [...this.#active.values()];
  }

  progress(): BatchProgress {
    return buildProgress({
      workflowId: this.workflowId,
      phase: this.#phase,
      concurrency: this.input.concurrency,
      maxConcurrent: this.#maxConcurrent,
      generation: this.#generation,
      queue: this.#queue,
      active: [...this.#active.values()],
      results: this.#results,
      childId: (issue) => this.childId(issue),
    });
  }

  publish(): void {
    this.#version += 1;
    setCurrentDetails(renderBatchDetails(this.progress()));
  }

  /** A task ended: the main loop looks again (no new details). */
  wake(): void {
    this.#version += 1;
  }

  /** An operator's cancel: false when the batch was already cancelled. */
  cancel(reason: string): boolean {
    if (this.#cancelled !== undefined) return false;
    this.#cancelled = reason;
    this.#phase = 'cancelling';
    this.publish();
    return true;
  }

  /** The issues were selected (a fresh batch): they are the queue. */
  select(issues: readonly BatchIssueRef[]): void {
    this.#queue = [...issues];
  }

  /** Selection is over: the batch runs, or cancels if a cancel came meanwhile. */
  startRunning(): void {
    this.#phase = this.#cancelled === undefined ? 'running' : 'cancelling';
    this.publish();
  }

  /** History is full: no new child starts; the batch continues as new once they end. */
  startDraining(): void {
    if (this.#phase === 'running') this.#phase = 'draining';
    this.publish();
  }

  /** The next queued issue, if any, leaves the queue. */
  takeNext(): BatchIssueRef | undefined {
    return this.#queue.shift();
  }

  setActive(ref: BatchIssueRef, state: BatchIssueProgress['state']): void {
    this.#active.set(ref.number, { issue: ref.number, title: ref.title, state, workflowId: this.childId(ref.number) });
    this.publish();
  }

  /** The issue is no longer active (its row, if any, is recorded). */
  release(issue: number): void {
    this.#active.delete(issue);
    this.publish();
  }

  /** A child run is in flight: counted toward the maximum concurrency seen. */
  childStarted(): void {
    this.#inFlight += 1;
    this.#maxConcurrent = Math.max(this.#maxConcurrent, this.#inFlight);
  }

  childEnded(): void {
    this.#inFlight -= 1;
  }

  record(row: BatchIssueResult): void {
    this.#results.push(row);
  }

  /** Cancelled: what is still queued never starts; each becomes a cancelled row. */
  cancelQueued(row: (ref: BatchIssueRef) => BatchIssueResult): void {
    for (const ref of this.#queue) this.#results.push(row(ref));
    this.#queue = [];
  }

  /** What the next run of the batch (continue-as-new) carries. */
  carry(): BatchCarry {
    return {
      queue: this.#queue,
      results: this.#results,
      maxConcurrent: this.#maxConcurrent,
      generation: this.#generation + 1,
    };
  }

  complete(): void {
    this.#phase = 'completed';
    this.publish();
  }

  result(): BatchResult {
    return batchResult({
      workflowId: this.workflowId,
      cancelled: this.#cancelled !== undefined,
      maxConcurrent: this.#maxConcurrent,
      generation: this.#generation,
      results: this.#results,
    });
  }

  /** For the log: how many rows are recorded. */
  get done(): number {
    return this.#results.length;
  }
}
