/**
 * The run's progress comment (RunInput.progressComment, set by the watcher): one
 * comment on the issue, created at the first step and edited in place at every step
 * change and at the end, through the updateProgressComment activity. The comment id
 * the activity returns is kept here, so an edit never creates a second comment; the
 * activity also finds its own comment by a marker when a retry lost the id.
 *
 * Edits are throttled: one at each step change and one at the end always, others at
 * most every MIN_EDIT_INTERVAL_MS of workflow time. A failed edit is logged and never
 * fails the run: the comment is a courtesy, the run's outcome is the work.
 *
 * Runs without the setting issue no command for it.
 */
import { CancellationScope, isCancellation, log, workflowInfo } from '@temporalio/workflow';
import type { ProgressView } from '../../contracts/progress-comment.js';
import { progressActivities } from './activity-proxies.js';
import type { RunInput, RunProgress, RunResult } from '../../contracts/run.js';
import { failureInfo } from './failure-info.js';

/** What the keeper reads of the run session (structural: run/state stays a leaf of run/). */
export interface ProgressSource {
  readonly workflowId: string;
  readonly definition: { readonly steps: Readonly<Record<string, unknown>> } | undefined;
  readonly state: { readonly stepId: string; readonly iteration: number; readonly phase: string };
  progress(): RunProgress;
}

const MIN_EDIT_INTERVAL_MS = 5_000;

export class ProgressComment {
  readonly #input: RunInput;
  readonly #enabled: boolean;
  #commentId: number | undefined;
  #lastKey = '';
  #lastAtMs = -Infinity;

  constructor(input: RunInput) {
    this.#input = input;
    this.#enabled = input.progressComment !== undefined;
    this.#commentId = input.progressComment?.commentId;
  }

  get commentId(): number | undefined {
    return this.#commentId;
  }

  /** After a step (or at the start): forced when the step or iteration changed. */
  async step(session: ProgressSource): Promise<void> {
    if (!this.#enabled || session.definition === undefined) return;
    const s = session.state;
    const key = `${s.stepId}#${s.iteration}#${s.phase}`;
    const now = Date.now();
    if (key === this.#lastKey && now - this.#lastAtMs < MIN_EDIT_INTERVAL_MS) return;
    await this.send(session, key, undefined);
  }

  /** The end: always sent, with the outcome. */
  async end(session: ProgressSource, result: RunResult): Promise<void> {
    if (!this.#enabled || session.definition === undefined) return;
    // Also after a Temporal cancel of the run: the last edit still goes out.
    await CancellationScope.nonCancellable(() => this.send(session, 'end', result));
  }

  private async send(session: ProgressSource, key: string, result: RunResult | undefined): Promise<void> {
    this.#lastKey = key;
    this.#lastAtMs = Date.now();
    try {
      const out = await progressActivities.updateProgressComment({
        repoPath: this.#input.repoPath,
        issueSource: this.#input.issueSource,
        issue: this.#input.issue,
        runKey: `${session.workflowId}/${workflowInfo().firstExecutionRunId}`,
        ...(this.#commentId === undefined ? {} : { commentId: this.#commentId }),
        view: this.view(session, result),
      });
      if (out.commentId !== undefined) this.#commentId = out.commentId;
    } catch (err) {
      if (isCancellation(err)) throw err;
      log.warn('could not update the progress comment', { error: failureInfo(err).message });
    }
  }

  private view(session: ProgressSource, result: RunResult | undefined): ProgressView {
    const p = session.progress();
    const visited = new Set(p.steps.map((s) => s.stepId));
    const order = Object.keys(session.definition?.steps ?? {});
    const current = result === undefined ? p.stepId : undefined;
    const uiBase = this.#input.progressComment?.uiWorkflowsUrl;
    const verdict = p.lastError ?? result?.verdict;
    return {
      steps: order.map((stepId) => ({
        stepId,
        mark: stepId === current ? 'current' : visited.has(stepId) ? 'done' : 'pending',
      })),
      iteration: p.iteration,
      maxIterations: p.maxIterations,
      tokens: p.tokensTotal,
      costUsd: p.costUsd,
      phase: p.phase,
      ...(verdict === undefined ? {} : { verdict }),
      ...(uiBase === undefined ? {} : { uiUrl: `${uiBase}${encodeURIComponent(session.workflowId)}` }),
      ...(result === undefined
        ? {}
        : {
            outcome: {
              kind: result.outcome,
              reason: result.reason,
              ...(result.boundary?.prUrl === undefined ? {} : { prUrl: result.boundary.prUrl }),
              ...(result.branch === undefined ? {} : { branch: result.branch }),
            },
          }),
    };
  }
}
