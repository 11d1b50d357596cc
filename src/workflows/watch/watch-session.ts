/**
 * The watcher's one state owner (the shape of session/state-owner.ts): the WatchState
 * the query and the loop read, changed only by the named transitions of watch/state/
 * through the event-named methods below. It does no I/O; run-watch.ts acts on what they
 * hand out.
 */
import { DEFAULT_CI_ROUNDS } from '../../contracts/watch.js';
import type {
  CiWatch,
  PendingWork,
  RunCheck,
  WatchCarry,
  WatchCursor,
  WatchedRun,
  WatchInput,
  WatchProgress,
  WatchTrigger,
} from '../../contracts/watch.js';
import { StateOwner } from '../session/state-owner.js';
import {
  initialWatchState,
  issueOf,
  runningRuns,
  runOf,
  startableWork,
  watchedPulls,
  type WatchState,
} from './state/watch-state.js';
import { pollRecorded, runChecked, runStarted, stopRequested, workDropped } from './state/watch-transitions.js';
import { applyTriggers, type WatchAction } from './state/watch-triggers.js';

export type { WatchAction } from './state/watch-triggers.js';

export class WatchSession extends StateOwner<WatchState> {
  constructor(
    readonly input: WatchInput,
    readonly workflowId: string,
    startedAt: string,
  ) {
    super(initialWatchState(input.carry, startedAt));
  }

  runId(issue: number): string {
    return `${this.input.repoId}/${this.input.agentName}/issue-${issue}`;
  }

  get cursor(): WatchCursor {
    return this.state.cursor;
  }
  get polls(): number {
    return this.state.polls;
  }
  get stopping(): boolean {
    return this.state.stopping;
  }
  get running(): readonly WatchedRun[] {
    return runningRuns(this.state);
  }

  /** Delivered pull requests whose reviews (and, unless ciRounds is 0, checks) the poll reads. */
  pulls(): Array<{ pull: number; issue: number; seen: readonly number[]; ci?: CiWatch }> {
    return watchedPulls(this.state, (this.input.ciRounds ?? DEFAULT_CI_ROUNDS) > 0);
  }

  runOf(issue: number): WatchedRun | undefined {
    return runOf(this.state, issue);
  }

  /** A number a comment was written on: an issue, or the pull request of a delivered run. */
  issueOf(number: number): number {
    return issueOf(this.state, number);
  }

  /** A poll came back: its cursor and note are kept, its triggers applied; returns the actions to carry out now. */
  polled(poll: { cursor: WatchCursor; note?: string; triggers: readonly WatchTrigger[] }): WatchAction[] {
    this.apply(pollRecorded, poll.cursor, poll.note);
    return this.triggered(poll.triggers);
  }

  /** Applies triggers (watch-triggers.ts); returns the actions to carry out now. */
  triggered(triggers: readonly WatchTrigger[]): WatchAction[] {
    const rules = { ciRounds: this.input.ciRounds ?? DEFAULT_CI_ROUNDS, mention: this.input.mention };
    return this.take(applyTriggers, triggers, rules).actions;
  }

  /** Work that may start now: issues without a live run, within the concurrency limit. */
  startable(): PendingWork[] {
    return startableWork(this.state, this.input.concurrency);
  }

  started(work: PendingWork, workflowId: string): void {
    this.apply(runStarted, work, workflowId);
  }

  /** Work that could not start (e.g. the issue vanished): dropped. */
  drop(work: PendingWork): void {
    this.apply(workDropped, work);
  }

  /** A check of a running run: returns the run when it has just ended. */
  checked(check: RunCheck): WatchedRun | undefined {
    return this.take(runChecked, check).ended;
  }

  /** `stop` (or a Temporal cancel): the loop ends after this cycle. */
  stop(): void {
    this.apply(stopRequested);
  }

  carry(): WatchCarry {
    const { cursor, runs, pending, polls } = this.state;
    return { cursor, runs, pending, polls };
  }

  progress(): WatchProgress {
    const s = this.state;
    return {
      workflowId: this.workflowId,
      polls: s.polls,
      running: this.running.map((r) => r.issue),
      pending: s.pending.map((p) => p.issue),
      runs: s.runs,
      ...(s.note === undefined ? {} : { note: s.note }),
      stopping: s.stopping,
    };
  }
}
