/**
 * Label sync: reads the catalog once, plans (plan-label-sync.ts) and applies each
 * create/update on its own, so one failing label (a permission, a transport error) is
 * reported as failed and the others still go through. A dry run only plans. Results
 * keep the declaration order.
 */
import { AgentError } from '../../contracts/errors.js';
import type { CatalogLabel, LabelCatalog } from './label-catalog.js';
import { LabelSyncAction, planLabelSync } from './plan-label-sync.js';

export const LabelSyncOutcome = {
  Created: 'created',
  Updated: 'updated',
  Unchanged: 'unchanged',
  Failed: 'failed',
} as const;
export type LabelSyncOutcome = (typeof LabelSyncOutcome)[keyof typeof LabelSyncOutcome];

export interface LabelSyncResult {
  readonly name: string;
  readonly outcome: LabelSyncOutcome;
  readonly color: string;
  readonly description: string;
  /** The catalog's label before (updated, unchanged, and a failed update). */
  readonly previous?: { readonly color: string; readonly description: string };
  /** Only with outcome failed. */
  readonly error?: string;
}

/** Throws when the catalog cannot be listed (nothing can be planned without it). */
export async function syncLabels(
  catalog: LabelCatalog,
  desired: readonly CatalogLabel[],
  options: { readonly dryRun?: boolean } = {},
): Promise<LabelSyncResult[]> {
  const plan = planLabelSync(desired, await catalog.list());
  const results: LabelSyncResult[] = [];
  for (const step of plan) {
    const base = {
      name: step.label.name,
      color: step.label.color,
      description: step.label.description,
      ...(step.current === undefined
        ? {}
        : { previous: { color: step.current.color, description: step.current.description } }),
    };
    const done = step.action === LabelSyncAction.Create ? LabelSyncOutcome.Created : LabelSyncOutcome.Updated;
    if (step.action === LabelSyncAction.Unchanged) {
      results.push({ ...base, outcome: LabelSyncOutcome.Unchanged });
      continue;
    }
    if (options.dryRun) {
      results.push({ ...base, outcome: done });
      continue;
    }
    try {
      // One at a time: per-label failure isolation, and gentle on GitHub's secondary rate limits.
      if (step.action === LabelSyncAction.Create) await catalog.create(step.label);
      else await catalog.update(step.label);
      results.push({ ...base, outcome: done });
    } catch (error) {
      const message = AgentError.isInstance(error)
        ? error.describe()
        : error instanceof Error
          ? error.message
          : String(error);
      results.push({ ...base, outcome: LabelSyncOutcome.Failed, error: message });
    }
  }
  return results;
}
