/**
 * What the Web UI shows of a run: the workflow's current details (markdown) and the
 * search attributes operators filter on. Kept current at every phase change.
 */
import { setCurrentDetails, upsertSearchAttributes } from '@temporalio/workflow';
import type { RunProgress } from '../../contracts/run.js';
import { waitingLine } from '../../contracts/human-loop.js';
import { code, plainText, row, usd } from '../web-ui/details-markdown.js';
import { CostUsdKey, RunPhaseKey, StepIdKey, TokensTotalKey } from './search-attributes.js';

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
      lines.push(row([`${s.iteration}.`, code(s.stepId), route, `${tokens} tokens`, plainText(s.summary)]));
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
