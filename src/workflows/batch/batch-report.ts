/**
 * What the batch reports, pure: the result row each issue turns into, the counts, the
 * progress query's view, the Web UI details and the final table. BatchSession holds
 * the state these are computed from.
 */
import type {
  BatchCounts,
  BatchIssueProgress,
  BatchIssueRef,
  BatchIssueResult,
  BatchPhase,
  BatchProgress,
  BatchResult,
} from '../../contracts/batch.js';
import type { RunResult } from '../../contracts/run.js';
import { totalTokens } from '../../contracts/usage.js';
import { FailureType } from '../../contracts/failures.js';
import { undeliveredEffect } from '../../contracts/delivery.js';
import { plainText, row, usd } from '../web-ui/details-markdown.js';

/** A finished run as a row: success needs a fully delivered boundary, otherwise it is partial. */
export function rowFromRun(
  ref: BatchIssueRef,
  workflowId: string,
  result: RunResult,
  attached: boolean,
): BatchIssueResult {
  const base = {
    issue: ref.number,
    title: ref.title,
    workflowId,
    steps: result.steps.length,
    iterations: result.iterations,
    tokens: totalTokens(result.usage),
    costUsd: result.costUsd,
    attached,
    ...(result.boundary?.prUrl ? { prUrl: result.boundary.prUrl } : {}),
  };
  // Validated but not (fully) delivered: a run fails for it (older runs succeeded with it).
  const boundary = result.boundary;
  if (result.outcome !== 'cancelled' && boundary !== undefined && boundary.status !== 'success') {
    const why = undeliveredEffect(boundary);
    return {
      ...base,
      outcome: 'partial',
      code: FailureType.BoundaryPartial,
      reason: `validated, but delivery is ${boundary.status}${why ? ` (${why})` : ''}${boundary.pending.length ? `; pending: ${boundary.pending.join('; ')}` : ''}`,
    };
  }
  switch (result.outcome) {
    case 'success':
      return { ...base, outcome: 'succeeded', reason: result.reason };
    case 'cancelled':
      return { ...base, outcome: 'cancelled', reason: result.reason };
    case 'failed':
      return { ...base, outcome: 'failed', reason: result.reason, ...(result.code ? { code: result.code } : {}) };
    case 'no-change':
      // Nothing delivered and the issue left open for a human: blocked, like a failure.
      return { ...base, outcome: 'failed', reason: result.reason };
  }
}

export function rowWithoutRun(
  ref: Pick<BatchIssueRef, 'number' | 'title'>,
  workflowId: string,
  outcome: 'failed' | 'cancelled' | 'skipped',
  reason: string,
  extra: { readonly code?: FailureType | undefined; readonly attached?: boolean } = {},
): BatchIssueResult {
  return {
    issue: ref.number,
    title: ref.title,
    workflowId,
    outcome,
    steps: 0,
    iterations: 0,
    tokens: 0,
    costUsd: 0,
    reason,
    attached: extra.attached ?? false,
    ...(extra.code ? { code: extra.code } : {}),
  };
}

export function countsOf(
  queued: number,
  active: readonly BatchIssueProgress[],
  results: readonly BatchIssueResult[],
): BatchCounts {
  const by = (o: BatchIssueResult['outcome']): number => results.filter((r) => r.outcome === o).length;
  return {
    total: queued + active.length + results.length,
    queued,
    running: active.length,
    succeeded: by('succeeded'),
    partial: by('partial'),
    failed: by('failed'),
    cancelled: by('cancelled'),
    skipped: by('skipped'),
  };
}

export function renderBatchDetails(p: BatchProgress): string {
  const c = p.counts;
  const lines = [
    `## Batch · ${p.phase}`,
    '',
    `**Issues:** ${c.total} · queued ${c.queued} · running ${c.running} · succeeded ${c.succeeded} · partial ${c.partial} · failed ${c.failed} · cancelled ${c.cancelled} · skipped ${c.skipped}`,
    `**Concurrency:** ${p.concurrency} (max seen ${p.maxConcurrent}) · **Generation:** ${p.generation}`,
  ];
  const running = p.issues.filter((i) => i.state === 'running' || i.state === 'starting');
  if (running.length > 0)
    lines.push('', `**Running:** ${running.map((i) => `#${i.issue} (\`${i.workflowId}\`)`).join(', ')}`);
  const recent = p.results.slice(-20);
  if (recent.length > 0) {
    lines.push('', `**Last ${recent.length} results**`, '');
    for (const r of recent)
      lines.push(
        row([`#${r.issue}`, r.outcome, `${r.steps} steps`, `${r.tokens} tokens`, usd(r.costUsd), plainText(r.reason)]),
      );
  }
  return lines.join('\n');
}

/** What the progress query and the Web UI show: finished rows, then running, then queued issues. PURE. */
export function buildProgress(view: {
  readonly workflowId: string;
  readonly phase: BatchPhase;
  readonly concurrency: number;
  readonly maxConcurrent: number;
  readonly generation: number;
  readonly queue: readonly BatchIssueRef[];
  readonly active: readonly BatchIssueProgress[];
  readonly results: readonly BatchIssueResult[];
  readonly childId: (issue: number) => string;
}): BatchProgress {
  const issues = [
    ...view.results.map((r): BatchIssueProgress => ({
      issue: r.issue,
      title: r.title,
      state: r.outcome,
      workflowId: r.workflowId,
      reason: r.reason,
    })),
    ...view.active,
    ...view.queue.map((q): BatchIssueProgress => ({
      issue: q.number,
      title: q.title,
      state: 'queued',
      workflowId: view.childId(q.number),
    })),
  ];
  return {
    workflowId: view.workflowId,
    phase: view.phase,
    concurrency: view.concurrency,
    counts: countsOf(view.queue.length, view.active, view.results),
    maxConcurrent: view.maxConcurrent,
    generation: view.generation,
    issues,
    results: view.results,
  };
}

/** The batch's final table, sorted by issue, with its status and totals. PURE. */
export function batchResult(end: {
  readonly workflowId: string;
  readonly cancelled: boolean;
  readonly maxConcurrent: number;
  readonly generation: number;
  readonly results: readonly BatchIssueResult[];
}): BatchResult {
  const sorted = [...end.results].sort((a, b) => a.issue - b.issue);
  const status = end.cancelled
    ? 'cancelled'
    : sorted.every((r) => r.outcome === 'succeeded' || r.outcome === 'skipped')
      ? 'completed'
      : 'partial';
  return {
    workflowId: end.workflowId,
    status,
    counts: countsOf(0, [], sorted),
    maxConcurrent: end.maxConcurrent,
    generation: end.generation,
    results: sorted,
    totalTokens: sorted.reduce((s, r) => s + r.tokens, 0),
    totalCostUsd: sorted.reduce((s, r) => s + r.costUsd, 0),
  };
}
