/**
 * The pipeline's limits (upstream cycle-tracker.ts, §6.2 step 5), checked before each
 * dispatch: `maxConsecutivePhases` first (the last N transitions all went to the same
 * phase; 0 turns it off), then `maxCycles` (dispatches in this pipeline run).
 */
import type { PipelineRules, PipelineTransition } from '../../contracts/pipeline.js';

export type LimitHit =
  | { readonly kind: 'phase_repetition_exceeded'; readonly reason: string }
  | { readonly kind: 'cycle_exceeded'; readonly reason: string };

/** Length of the run of equal `to` phases at the end of the history. */
export function trailingSamePhase(history: readonly PipelineTransition[]): number {
  const last = history.at(-1);
  if (last === undefined) return 0;
  let n = 0;
  for (let i = history.length - 1; i >= 0 && history[i]!.to === last.to; i--) n += 1;
  return n;
}

export function limitReached(history: readonly PipelineTransition[], rules: PipelineRules): LimitHit | undefined {
  const limit = rules.maxConsecutivePhases;
  if (limit > 0 && trailingSamePhase(history) >= limit) {
    return {
      kind: 'phase_repetition_exceeded',
      reason: `the last ${limit} transitions all went to phase ${history.at(-1)!.to} (maxConsecutivePhases ${limit})`,
    };
  }
  if (history.length >= rules.maxCycles) {
    return {
      kind: 'cycle_exceeded',
      reason: `reached maxCycles (${rules.maxCycles} agent dispatches) before a terminal or blocking phase`,
    };
  }
  return undefined;
}
