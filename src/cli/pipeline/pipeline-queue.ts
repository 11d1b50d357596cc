/**
 * The batch form's queue (upstream batch-runner.ts, §6.3): the open issues whose labels
 * resolve to an actionable phase with an agent, ordered by the index of their
 * prioritizer label in `prioritizer.labels` (most urgent first; no priority label last),
 * ties by issue number. Pure.
 */
import type { IssueSnapshot } from '../../contracts/activities.js';
import type { PipelineDefinition } from '../../contracts/pipeline.js';
import { bareLabel, resolvePhase } from '../../workflows/pipeline/phase-resolution.js';

export interface QueuedIssue {
  readonly number: number;
  readonly title: string;
  readonly phase: string;
  readonly priority?: string;
}

/** Index of the issue's most urgent prioritizer label, or Infinity. */
export function priorityRank(labels: readonly string[], definition: PipelineDefinition): number {
  const order = definition.prioritizer?.labels ?? [];
  let best = Number.POSITIVE_INFINITY;
  for (const label of labels) {
    const bare = bareLabel(label, definition.labelPrefix);
    const i = bare === undefined ? -1 : order.indexOf(bare);
    if (i >= 0 && i < best) best = i;
  }
  return best;
}

export function pipelineQueue(issues: readonly IssueSnapshot[], definition: PipelineDefinition): QueuedIssue[] {
  const order = definition.prioritizer?.labels ?? [];
  const entries = issues
    .filter((i) => i.state === 'open')
    .map((i) => ({ issue: i, resolved: resolvePhase(i.labels, definition), rank: priorityRank(i.labels, definition) }))
    .filter((e) => e.resolved.kind === 'actionable');
  entries.sort((a, b) => a.rank - b.rank || a.issue.number - b.issue.number);
  return entries.map((e) => ({
    number: e.issue.number,
    title: e.issue.title,
    phase: e.resolved.kind === 'actionable' ? e.resolved.phase : '',
    ...(Number.isFinite(e.rank) ? { priority: order[e.rank]! } : {}),
  }));
}
