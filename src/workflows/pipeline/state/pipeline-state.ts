/**
 * The pipeline's state as the query, the Web UI details and the result see it: a value,
 * changed only by the named transitions of pipeline-transitions.ts. Pure.
 */
import type { PipelineStatus, PipelineTransition } from '../../../contracts/pipeline.js';
import type { PipelineEndStatus, PipelineProgress, PipelineResult } from '../../../contracts/pipeline-run.js';
import { plainText, row } from '../../web-ui/details-markdown.js';

export interface PipelineState {
  readonly status: PipelineStatus;
  readonly paused: boolean;
  readonly phase?: string;
  readonly agent?: string;
  readonly childWorkflowId?: string;
  /** The cycle dispatched last: it stays the current cycle until the next dispatch. */
  readonly cycle?: number;
  readonly lastOutcome?: string;
  readonly history: readonly PipelineTransition[];
  readonly issueClosed: boolean;
  readonly reason?: string;
  readonly cancelled?: string;
}

export function initialPipelineState(): PipelineState {
  return { status: 'running', paused: false, history: [], issueClosed: false };
}

export function progressOf(
  s: PipelineState,
  meta: { workflowId: string; issue: number; pipeline: string; maxCycles: number },
): PipelineProgress {
  return {
    ...meta,
    status: s.status,
    paused: s.paused,
    cycle: s.cycle ?? s.history.length,
    history: [...s.history],
    issueClosed: s.issueClosed,
    ...(s.phase === undefined ? {} : { phase: s.phase }),
    ...(s.agent === undefined ? {} : { agent: s.agent }),
    ...(s.childWorkflowId === undefined ? {} : { childWorkflowId: s.childWorkflowId }),
    ...(s.lastOutcome === undefined ? {} : { lastOutcome: s.lastOutcome }),
    ...(s.reason === undefined ? {} : { reason: s.reason }),
  };
}

export function resultOf(
  s: PipelineState,
  meta: { workflowId: string; issue: number },
  status: PipelineEndStatus,
  reason: string,
): PipelineResult {
  return {
    issue: meta.issue,
    workflowId: meta.workflowId,
    ...(s.phase === undefined ? {} : { finalPhase: s.phase }),
    cycleCount: s.history.length,
    history: [...s.history],
    status,
    issueClosed: s.issueClosed,
    reason,
  };
}

/** Markdown for the Web UI's "current details". */
export function renderPipelineDetails(p: PipelineProgress): string {
  const lines = [
    `## Pipeline ${p.pipeline} · issue #${p.issue} · ${p.status}${p.paused ? ' (paused)' : ''}`,
    '',
    `**Phase:** ${p.phase ?? '-'} · **Cycle:** ${p.cycle}/${p.maxCycles} · **Agent:** ${p.agent ?? '-'} · **Last outcome:** ${p.lastOutcome ?? '-'}`,
  ];
  if (p.childWorkflowId) lines.push('', `**Running:** \`${p.childWorkflowId}\``);
  if (p.reason) lines.push('', `**Reason:** ${plainText(p.reason)}`);
  if (p.history.length > 0) {
    lines.push('', '**Transitions**', '');
    for (const t of p.history.slice(-20))
      lines.push(
        row([
          `cycle ${t.cycle}`,
          `${plainText(t.from)} → ${plainText(t.to)}`,
          plainText(t.agent),
          plainText(t.outcome),
        ]),
      );
  }
  return lines.join('\n');
}
