/**
 * The batch workflow's one state owner (the shape of session/state-owner.ts): the
 * BatchState the query reads, changed only by the named transitions of batch/state/
 * through the event-named methods below. Every change the main loop waits for bumps
 * `version` and republishes the Web UI details.
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
import { StateOwner } from '../session/state-owner.js';
import { batchResult, buildProgress, renderBatchDetails } from './batch-report.js';
import { initialBatchState, type BatchState } from './state/batch-state.js';
import {
  batchCompleted,
  cancelRequested,
  childEnded,
  childStarted,
  drainingStarted,
  issueActive,
  issueReleased,
  issuesSelected,
  queueCancelled,
  rowRecorded,
  runningStarted,
  takeNextIssue,
  versionBumped,
} from './state/batch-transitions.js';

export class BatchSession extends StateOwner<BatchState> {
  constructor(
    readonly input: BatchInput,
    readonly workflowId: string,
  ) {
    super(initialBatchState(input.carry));
  }

  /** Keyed by repository as start-run's runs (batches recorded before repoId keep their IDs). */
  childId(issue: number): string {
    return this.input.repoId === undefined
      ? `${this.input.agentName}-issue-${issue}`
      : `${this.input.repoId}/${this.input.agentName}/issue-${issue}`;
  }

  get phase(): BatchPhase {
    return this.state.phase;
  }
  get cancelled(): string | undefined {
    return this.state.cancelled;
  }
  get version(): number {
    return this.state.version;
  }
  get queued(): number {
    return this.state.queue.length;
  }
  /** The children being started or running, as the cancel forwards to them. */
  get active(): readonly BatchIssueProgress[] {
    return this.state.active;
  }
  /** For the log: how many rows are recorded. */
  get done(): number {
    return this.state.results.length;
  }

  progress(): BatchProgress {
    const s = this.state;
    return buildProgress({
      workflowId: this.workflowId,
      phase: s.phase,
      concurrency: this.input.concurrency,
      maxConcurrent: s.maxConcurrent,
      generation: s.generation,
      queue: s.queue,
      active: s.active,
      results: s.results,
      childId: (issue) => this.childId(issue),
    });
  }

  publish(): void {
    this.apply(versionBumped);
    setCurrentDetails(renderBatchDetails(this.progress()));
  }

  /** A task ended: the main loop looks again (no new details). */
  wake(): void {
    this.apply(versionBumped);
  }

  /** An operator's cancel: false when the batch was already cancelled. */
  cancel(reason: string): boolean {
    if (this.state.cancelled !== undefined) return false;
    this.apply(cancelRequested, reason);
    this.publish();
    return true;
  }

  /** The issues were selected (a fresh batch): they are the queue. */
  select(issues: readonly BatchIssueRef[]): void {
    this.apply(issuesSelected, issues);
  }

  /** Selection is over: the batch runs, or cancels if a cancel came meanwhile. */
  startRunning(): void {
    this.apply(runningStarted);
    this.publish();
  }

  /** History is full: no new child starts; the batch continues as new once they end. */
  startDraining(): void {
    this.apply(drainingStarted);
    this.publish();
  }

  /** The next queued issue, if any, leaves the queue. */
  takeNext(): BatchIssueRef | undefined {
    return this.take(takeNextIssue).next;
  }

  setActive(ref: BatchIssueRef, state: BatchIssueProgress['state']): void {
    this.apply(issueActive, { issue: ref.number, title: ref.title, state, workflowId: this.childId(ref.number) });
    this.publish();
  }

  /** The issue is no longer active (its row, if any, is recorded). */
  release(issue: number): void {
    this.apply(issueReleased, issue);
    this.publish();
  }

  /** A child run is in flight: counted toward the maximum concurrency seen. */
  childStarted(): void {
    this.apply(childStarted);
  }

  childEnded(): void {
    this.apply(childEnded);
  }

  record(row: BatchIssueResult): void {
    this.apply(rowRecorded, row);
  }

  /** Cancelled: what is still queued never starts; each becomes a cancelled row. */
  cancelQueued(row: (ref: BatchIssueRef) => BatchIssueResult): void {
    this.apply(queueCancelled, this.state.queue.map(row));
  }

  /** What the next run of the batch (continue-as-new) carries. */
  carry(): BatchCarry {
    const s = this.state;
    return { queue: s.queue, results: s.results, maxConcurrent: s.maxConcurrent, generation: s.generation + 1 };
  }

  complete(): void {
    this.apply(batchCompleted);
    this.publish();
  }

  result(): BatchResult {
    const s = this.state;
    return batchResult({
      workflowId: this.workflowId,
      cancelled: s.cancelled !== undefined,
      maxConcurrent: s.maxConcurrent,
      generation: s.generation,
      results: s.results,
    });
  }
}
