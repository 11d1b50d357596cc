/**
 * What the run shows of its progress outside the workflow, kept current as the run goes.
 *
 * The Web UI: the workflow's current details (markdown) and the search attributes
 * operators filter on. The session republishes them at every change of its state
 * (RunSession.changed calls publishProgress).
 *
 * The issue's progress comment (RunInput.progressComment, set by the watcher): one
 * comment on the issue, created at the first step and edited in place at every step
 * change and at the end, through the updateProgressComment activity. The comment id
 * the activity returns is kept by the run's session (its one state owner), so an edit never
 * creates a second comment; the activity also finds its own comment by a marker when a
 * retry lost the id. Edits are throttled: one at each step change and one at the end
 * always, others at most every MIN_EDIT_INTERVAL_MS of workflow time. A failed edit is
 * logged and never fails the run: the comment is a courtesy, the run's outcome is the
 * work. Runs without the setting issue no command for it.
 */
import {
  CancellationScope,
  isCancellation,
  log,
  setCurrentDetails,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { ProgressView } from '../../contracts/progress-comment.js';
import type { RunInput, RunProgress, RunResult } from '../../contracts/run.js';
import { waitingLine } from '../../contracts/human-loop.js';
import { code, plainText, row, usd } from '../web-ui/details-markdown.js';
import { progressActivities } from './activity-proxies.js';
import { failureInfo } from './failure-info.js';
import { CostUsdKey, RunPhaseKey, StepIdKey, TokensTotalKey } from './search-attributes.js';

/** The Web UI's current details: the run at a glance and its last ten steps. */
export function renderDetails(progress: RunProgress): string {
  const lines = [
    `## Issue #${progress.issue} · ${plainText(progress.agent)}`,
    '',
    `**Phase:** ${progress.phase} · **Step:** ${code(progress.stepId)} · **Iteration:** ${progress.iteration}/${progress.maxIterations}`,
    `**Tokens:** ${progress.tokensTotal} · **Cost:** ${usd(progress.costUsd)} · **Definition:** ${code(progress.definitionHash.slice(0, 12))}`,
  ];
  if (progress.branch)
    lines.push(`**Branch:** ${code(progress.branch)} · **Worktree:** ${code(progress.worktreePath ?? '')}`);
  const waiting = waitingLine(progress);
  if (waiting !== undefined) lines.push('', `**Waiting:** ${plainText(waiting, 600)}`);
  if (progress.lastError) lines.push('', `**Last error:** ${plainText(progress.lastError, 400)}`);
  for (const warning of progress.warnings ?? []) lines.push('', `**Warning:** ${plainText(warning, 400)}`);
  const recent = progress.steps.slice(-10);
  if (recent.length > 0) {
    lines.push('', `**Last ${recent.length} steps**`, '');
    for (const s of recent) {
      const tokens = s.usage.inputTokens + s.usage.outputTokens + s.usage.cacheReadTokens + s.usage.cacheWriteTokens;
      const route = s.intent ? `${s.intent}${s.next ? ` → ${code(s.next)}` : ''}` : '';
      const summary = s.checks ? `${s.summary} · checks ${s.checks}` : s.summary;
      lines.push(row([`${s.iteration}.`, code(s.stepId), route, `${tokens} tokens`, plainText(summary)]));
    }
  }
  return lines.join('\n');
}

/** What was last sent as search attributes (empty before the first upsert). */
export interface PublishedAttributes {
  readonly key: string;
  readonly stepId: string;
  readonly phase: string;
  /** Workflow time of the upsert (deterministic: the workflow task's start). */
  readonly atMs: number;
}

export const NOTHING_PUBLISHED: PublishedAttributes = { key: '', stepId: '', phase: '', atMs: 0 };

/**
 * Tokens and cost alone refresh the search attributes at most every this many ms; a new
 * phase or step still upserts at once, and the last upsert (the final phase) carries the
 * final figures. Each upsert is a history event and a visibility write: at one per step,
 * 50 fast runs spent ~28% of the server's CPU on them.
 */
export const FIGURES_REFRESH_MS = 15_000;

/**
 * Publishes progress to the Web UI. Current details are workflow metadata (no history
 * event) and always current; a search-attribute upsert is a command in history, so it is
 * sent only when a value operators filter on changed (see FIGURES_REFRESH_MS).
 * Returns what is published now.
 */
export function publishProgress(progress: RunProgress, last: PublishedAttributes, nowMs: number): PublishedAttributes {
  setCurrentDetails(renderDetails(progress));
  const cost = Math.round(progress.costUsd * 10000) / 10000;
  const key = `${progress.stepId}|${progress.phase}|${cost}|${progress.tokensTotal}`;
  if (key === last.key) return last;
  if (progress.stepId === last.stepId && progress.phase === last.phase && nowMs - last.atMs < FIGURES_REFRESH_MS)
    return last;
  upsertSearchAttributes([
    { key: StepIdKey, value: progress.stepId },
    { key: RunPhaseKey, value: progress.phase },
    { key: CostUsdKey, value: cost },
    { key: TokensTotalKey, value: progress.tokensTotal },
  ]);
  return { key, stepId: progress.stepId, phase: progress.phase, atMs: nowMs };
}

/** The comment's id, once known, and its last edit (for the throttle). */
export interface ProgressCommentMark {
  readonly commentId?: number;
  readonly lastKey: string;
  readonly lastAtMs: number;
}

/** Before the first edit: the id a continued run carried, if any. */
export function firstCommentMark(input: RunInput): ProgressCommentMark {
  const commentId = input.progressComment?.commentId;
  return { ...(commentId === undefined ? {} : { commentId }), lastKey: '', lastAtMs: -Infinity };
}

/** What the keeper reads and tells of the run session (structural: run/state stays a leaf of run/). */
export interface ProgressSource {
  readonly input: RunInput;
  readonly workflowId: string;
  readonly definition: { readonly steps: Readonly<Record<string, unknown>> } | undefined;
  readonly state: { readonly stepId: string; readonly iteration: number; readonly phase: string };
  readonly progressComment: ProgressCommentMark;
  progress(): RunProgress;
  progressCommentSending(key: string, atMs: number): void;
  progressCommentSent(commentId: number): void;
}

const MIN_EDIT_INTERVAL_MS = 5_000;

/** After a step (or at the start): forced when the step or iteration changed. */
export async function editProgressComment(session: ProgressSource): Promise<void> {
  if (session.input.progressComment === undefined || session.definition === undefined) return;
  const s = session.state;
  const key = `${s.stepId}#${s.iteration}#${s.phase}`;
  const now = Date.now();
  const last = session.progressComment;
  if (key === last.lastKey && now - last.lastAtMs < MIN_EDIT_INTERVAL_MS) return;
  await send(session, key, undefined);
}

/** The end: always sent, with the outcome. */
export async function endProgressComment(session: ProgressSource, result: RunResult): Promise<void> {
  if (session.input.progressComment === undefined || session.definition === undefined) return;
  // Also after a Temporal cancel of the run: the last edit still goes out.
  await CancellationScope.nonCancellable(() => send(session, 'end', result));
}

async function send(session: ProgressSource, key: string, result: RunResult | undefined): Promise<void> {
  const input = session.input;
  session.progressCommentSending(key, Date.now());
  const commentId = session.progressComment.commentId;
  try {
    const out = await progressActivities.updateProgressComment({
      repoPath: input.repoPath,
      issueSource: input.issueSource,
      issue: input.issue,
      runKey: `${session.workflowId}/${workflowInfo().firstExecutionRunId}`,
      ...(commentId === undefined ? {} : { commentId }),
      view: view(session, result),
    });
    if (out.commentId !== undefined) session.progressCommentSent(out.commentId);
  } catch (err) {
    if (isCancellation(err)) throw err;
    log.warn('could not update the progress comment', { error: failureInfo(err).message });
  }
}

function view(session: ProgressSource, result: RunResult | undefined): ProgressView {
  const p = session.progress();
  const visited = new Set(p.steps.map((s) => s.stepId));
  const order = Object.keys(session.definition?.steps ?? {});
  const current = result === undefined ? p.stepId : undefined;
  const uiBase = session.input.progressComment?.uiWorkflowsUrl;
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
