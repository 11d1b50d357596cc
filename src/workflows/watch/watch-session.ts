/**
 * The watcher's state and its decisions, without I/O: which runs it knows, which work
 * it owes, and what each trigger a poll found asks for. Carried whole over
 * continue-as-new (it is small: cursors, ids and short texts).
 *
 * Rules:
 * - never two live runs for one issue: work for an issue whose run is live waits in
 *   `pending` (and the Workflow ID is the issue's, so Temporal refuses a duplicate too);
 * - work owed to one issue is batched: two review comments in a row are one continuation
 *   whose guidance holds both texts;
 * - a comment on a delivered run's pull request is about that run's issue.
 */
import { DEFAULT_CI_ROUNDS } from '../../contracts/watch.js';
import { decideCheckFailure, nextCi, NO_CI, type CheckFailed, type CiChange } from './ci-rounds.js';
import type {
  CiWatch,
  PendingWork,
  ReplyTarget,
  RunCheck,
  WatchCarry,
  WatchCursor,
  WatchedRun,
  WatchInput,
  WatchProgress,
  WatchTrigger,
} from '../../contracts/watch.js';

const MAX_ENDED_RUNS = 200;

/** Something the workflow must do now for a command (signals and replies). */
export type WatchAction =
  | { readonly kind: 'cancel'; readonly run: WatchedRun; readonly reply: ReplyTarget }
  | { readonly kind: 'retry'; readonly run: WatchedRun; readonly text: string; readonly reply: ReplyTarget }
  | { readonly kind: 'status'; readonly run: WatchedRun; readonly reply: ReplyTarget }
  | { readonly kind: 'reply'; readonly reply: ReplyTarget; readonly text: string }
  | { readonly kind: 'extend'; readonly run: WatchedRun; readonly usd: number; readonly reply: ReplyTarget }
  /** A comment relayed to the issue's live run as the answer to its question (ignored when it asked none). */
  | { readonly kind: 'answer'; readonly run: WatchedRun; readonly text: string; readonly reply: ReplyTarget };

export class WatchSession {
  cursor: WatchCursor;
  #runs: WatchedRun[];
  #pending: PendingWork[];
  polls: number;
  note: string | undefined;
  stopping = false;

  constructor(
    readonly input: WatchInput,
    readonly workflowId: string,
    startedAt: string,
  ) {
    const carry = input.carry;
    this.cursor = carry?.cursor ?? { since: startedAt, seenCommentIds: [] };
    this.#runs = [...(carry?.runs ?? [])];
    this.#pending = [...(carry?.pending ?? [])];
    this.polls = carry?.polls ?? 0;
  }

  runId(issue: number): string {
    return `${this.input.repoId}/${this.input.agentName}/issue-${issue}`;
  }

  get running(): readonly WatchedRun[] {
    return this.#runs.filter((r) => r.state === 'running');
  }

  /** Delivered pull requests whose reviews (and, unless ciRounds is 0, checks) the poll reads. */
  pulls(): Array<{ pull: number; issue: number; seen: readonly number[]; ci?: CiWatch }> {
    const readChecks = (this.input.ciRounds ?? DEFAULT_CI_ROUNDS) > 0;
    return this.#runs
      .filter((r) => r.state === 'ended' && r.pull !== undefined)
      .map((r) => ({
        pull: r.pull!,
        issue: r.issue,
        seen: r.seenReviews,
        ...(readChecks ? { ci: r.ci ?? NO_CI } : {}),
      }));
  }

  runOf(issue: number): WatchedRun | undefined {
    return this.#runs.find((r) => r.issue === issue);
  }

  /** A number a comment was written on: an issue, or the pull request of a delivered run. */
  issueOf(number: number): number {
    return this.#runs.find((r) => r.pull === number)?.issue ?? number;
  }

  /** Applies a poll's triggers; returns the actions to carry out now. */
  take(triggers: readonly WatchTrigger[]): WatchAction[] {
    const actions: WatchAction[] = [];
    for (const t of triggers) {
      const issue = this.issueOf(t.issue);
      const run = this.runOf(issue);
      switch (t.kind) {
        case 'label':
          if (run?.state !== 'running') this.owe(issue, 'start', undefined, undefined);
          break;
        case 'mention':
          if (t.onPull && run === undefined) break; // a pull request the watcher did not deliver
          this.owe(issue, run === undefined ? 'start' : 'continue', t.text, t.reply);
          break;
        case 'review':
          if (run !== undefined) this.replaceRun({ ...run, seenReviews: [...run.seenReviews, t.reviewId] });
          this.owe(issue, 'continue', t.text, undefined);
          break;
        case 'check-rerun':
          if (run !== undefined) this.updateCi(run, { checkRunId: t.checkRunId, reran: t.key });
          break;
        case 'check-failed':
          if (run !== undefined) actions.push(...this.checkFailed(run, t));
          break;
        case 'pull-closed':
          if (run !== undefined) this.updateCi(run, { stopped: true });
          break;
        case 'extend':
          if (run?.state === 'running') actions.push({ kind: 'extend', run, usd: t.usd, reply: t.reply });
          else actions.push({ kind: 'reply', reply: t.reply, text: `no live run for #${issue}: nothing to extend` });
          break;
        case 'comment':
          if (run?.state === 'running') actions.push({ kind: 'answer', run, text: t.text, reply: t.reply });
          break;
        case 'command':
          switch (t.command) {
            case 'cancel':
              if (run?.state === 'running') actions.push({ kind: 'cancel', run, reply: t.reply });
              else
                actions.push({ kind: 'reply', reply: t.reply, text: `no live run for #${issue}: nothing to cancel` });
              this.#pending = this.#pending.filter((p) => p.issue !== issue);
              break;
            case 'retry':
              if (run?.state === 'running') actions.push({ kind: 'retry', run, text: t.text, reply: t.reply });
              else this.owe(issue, run === undefined ? 'start' : 'continue', t.text, t.reply);
              break;
            case 'status':
              if (run !== undefined) actions.push({ kind: 'status', run, reply: t.reply });
              else
                actions.push({ kind: 'reply', reply: t.reply, text: `no run of #${issue} is known to this watcher` });
              break;
          }
          break;
      }
    }
    return actions;
  }

  /** A confirmed CI failure: a continuation with its log while rounds are left (ci-rounds.ts). */
  private checkFailed(run: WatchedRun, t: CheckFailed): WatchAction[] {
    const decided = decideCheckFailure(run.ci, t, this.input.ciRounds ?? DEFAULT_CI_ROUNDS, this.input.mention);
    this.replaceRun({ ...run, ci: decided.ci });
    if (decided.work) this.owe(run.issue, 'continue', t.text, undefined);
    return [{ kind: 'reply', reply: decided.reply.to, text: decided.reply.text }];
  }

  private updateCi(run: WatchedRun, change: CiChange): void {
    this.replaceRun({ ...run, ci: nextCi(run.ci, change) });
  }

  owe(issue: number, kind: PendingWork['kind'], text: string | undefined, reply: ReplyTarget | undefined): void {
    const guidance = text === undefined || text.trim() === '' ? [] : [text.trim()];
    const at = this.#pending.findIndex((p) => p.issue === issue);
    const existing = this.#pending[at];
    if (existing === undefined) {
      this.#pending.push({ issue, kind, guidance, ...(reply ? { reply } : {}) });
      return;
    }
    this.#pending[at] = {
      issue,
      kind: existing.kind === 'continue' || kind === 'continue' ? 'continue' : 'start',
      guidance: [...existing.guidance, ...guidance],
      ...((reply ?? existing.reply) ? { reply: reply ?? existing.reply! } : {}),
    };
  }

  /** Work that may start now: issues without a live run, within the concurrency limit. */
  startable(): PendingWork[] {
    const free = this.input.concurrency - this.running.length;
    if (free <= 0) return [];
    return this.#pending.filter((p) => this.runOf(p.issue)?.state !== 'running').slice(0, free);
  }

  started(work: PendingWork, workflowId: string): void {
    this.#pending = this.#pending.filter((p) => p.issue !== work.issue);
    const previous = this.runOf(work.issue);
    this.replaceRun({
      issue: work.issue,
      workflowId,
      state: 'running',
      ...(previous?.pull === undefined ? {} : { pull: previous.pull, prUrl: previous.prUrl! }),
      ...(work.reply ? { reply: work.reply } : {}),
      seenReviews: previous?.seenReviews ?? [],
      ...(previous?.ci === undefined ? {} : { ci: previous.ci }),
    });
  }

  /** Work that could not start (e.g. the issue vanished): dropped with the reason. */
  drop(work: PendingWork): void {
    this.#pending = this.#pending.filter((p) => p.issue !== work.issue);
  }

  /** A check of a running run: returns the run when it has just ended. */
  checked(check: RunCheck): WatchedRun | undefined {
    const run = this.#runs.find((r) => r.workflowId === check.workflowId && r.state === 'running');
    if (run === undefined || check.status === 'running') return undefined;
    const pull = check.prUrl === undefined ? run.pull : Number(/\/pull\/(\d+)/.exec(check.prUrl)?.[1] ?? NaN);
    const ended: WatchedRun = {
      ...run,
      state: 'ended',
      outcome: check.outcome ?? 'failed',
      ...(check.prUrl === undefined ? {} : { prUrl: check.prUrl }),
      ...(pull === undefined || Number.isNaN(pull) ? {} : { pull }),
      ...(check.branch === undefined ? {} : { branch: check.branch }),
    };
    this.replaceRun(ended);
    return ended;
  }

  private replaceRun(run: WatchedRun): void {
    this.#runs = [...this.#runs.filter((r) => r.issue !== run.issue), run];
    const ended = this.#runs.filter((r) => r.state === 'ended');
    if (ended.length > MAX_ENDED_RUNS) {
      const drop = new Set(ended.slice(0, ended.length - MAX_ENDED_RUNS));
      this.#runs = this.#runs.filter((r) => !drop.has(r));
    }
  }

  carry(): WatchCarry {
    return { cursor: this.cursor, runs: this.#runs, pending: this.#pending, polls: this.polls };
  }

  progress(): WatchProgress {
    return {
      workflowId: this.workflowId,
      polls: this.polls,
      running: this.running.map((r) => r.issue),
      pending: this.#pending.map((p) => p.issue),
      runs: this.#runs,
      ...(this.note === undefined ? {} : { note: this.note }),
      stopping: this.stopping,
    };
  }
}
