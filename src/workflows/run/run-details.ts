/**
 * What the Web UI shows of a run: the workflow's current details (markdown) and the
 * search attributes operators filter on. Kept current at every phase change.
 */
import { setCurrentDetails, upsertSearchAttributes } from '@temporalio/workflow';
import type { RunProgress } from '../../contracts/run.js';
import { CostUsdKey, RunPhaseKey, StepIdKey, TokensTotalKey } from './search-attributes.js';

export function renderDetails(progress: RunProgress): string {
  const lines = [
    `## Issue #${progress.issue} · ${progress.agent}`,
    '',
    `**Phase:** ${progress.phase} · **Step:** \`${progress.stepId}\` · **Iteration:** ${progress.iteration}/${progress.maxIterations}`,
    `**Tokens:** ${progress.tokensTotal} · **Cost:** $${progress.costUsd.toFixed(4)} · **Definition:** \`${progress.definitionHash.slice(0, 12)}\``,
  ];
  if (progress.branch)
    lines.push(`**Branch:** \`${progress.branch}\` · **Worktree:** \`${progress.worktreePath ?? ''}\``);
  if (progress.lastError) lines.push('', `**Last error:** ${progress.lastError}`);
  for (const warning of progress.warnings ?? []) lines.push('', `**Warning:** ${warning}`);
  const recent = progress.steps.slice(-10);
  if (recent.length > 0) {
    lines.push('', '| # | step | intent | next | tokens | summary |', '|---|---|---|---|---|---|');
    for (const s of recent) {
      const tokens = s.usage.inputTokens + s.usage.outputTokens + s.usage.cacheReadTokens + s.usage.cacheWriteTokens;
      const summary = s.summary.replace(/\s+/g, ' ').replace(/\|/g, '/').slice(0, 80);
      lines.push(`| ${s.iteration} | ${s.stepId} | ${s.intent ?? ''} | ${s.next ?? ''} | ${tokens} | ${summary} |`);
    }
  }
  return lines.join('\n');
}

/**
 * Publishes progress to the Web UI. Current details are workflow metadata (no history
 * event); a search-attribute upsert is a command in history, so it is sent only when a
 * value operators filter on actually changed. Returns the key last published.
 */
export function publishProgress(progress: RunProgress, lastKey: string): string {
  setCurrentDetails(renderDetails(progress));
  const cost = Math.round(progress.costUsd * 10000) / 10000;
  const key = `${progress.stepId}|${progress.phase}|${cost}|${progress.tokensTotal}`;
  if (key === lastKey) return lastKey;
  upsertSearchAttributes([
    { key: StepIdKey, value: progress.stepId },
    { key: RunPhaseKey, value: progress.phase },
    { key: CostUsdKey, value: cost },
    { key: TokensTotalKey, value: progress.tokensTotal },
  ]);
  return key;
}
