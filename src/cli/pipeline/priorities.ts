/**
 * The prioritizer's answer (upstream `priorities.json`, `[{issue, priority}]`), adapted to
 * structured outputs: the prioritizer agent's closure step declares `priorities` among
 * its `handoffFields`, so the run's result carries it. Pure: reading it, checking each
 * priority against `prioritizer.labels` (an unknown one becomes `defaultLabel`, or is
 * rejected as upstream did), and the label change of each issue.
 */
import type { PipelineDefinition, Prioritizer } from '../../contracts/pipeline.js';
import type { RunResult } from '../../contracts/run.js';
import { bareLabel, realLabel } from '../../workflows/pipeline/phase-resolution.js';

export interface PriorityRow {
  readonly issue: number;
  /** The bare priority label applied, or undefined when rejected. */
  readonly priority?: string;
  readonly note?: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The `priorities` handoff value of the run (the last step declaring one wins), parsed from JSON text if needed. */
export function prioritiesOf(result: Pick<RunResult, 'handoff'>): unknown[] | undefined {
  let found: unknown;
  for (const fields of Object.values(result.handoff))
    if (Object.hasOwn(fields, 'priorities')) found = fields['priorities'];
  if (typeof found === 'string') {
    try {
      found = JSON.parse(found);
    } catch {
      return undefined;
    }
  }
  return Array.isArray(found) ? found : undefined;
}

export function checkPriorities(
  entries: readonly unknown[],
  prioritizer: Prioritizer,
  open: readonly number[],
): PriorityRow[] {
  const rows = new Map<number, PriorityRow>();
  for (const entry of entries) {
    if (!isRecord(entry) || typeof entry['issue'] !== 'number' || !open.includes(entry['issue'])) continue;
    const issue = entry['issue'];
    const given = entry['priority'];
    if (typeof given === 'string' && prioritizer.labels.includes(given)) rows.set(issue, { issue, priority: given });
    else if (prioritizer.defaultLabel !== undefined)
      rows.set(issue, {
        issue,
        priority: prioritizer.defaultLabel,
        note: `priority ${JSON.stringify(given)} is not one of ${prioritizer.labels.join(', ')}: default ${prioritizer.defaultLabel}`,
      });
    else
      rows.set(issue, {
        issue,
        note: `priority ${JSON.stringify(given)} is not one of ${prioritizer.labels.join(', ')} and there is no defaultLabel`,
      });
  }
  return [...rows.values()].sort((a, b) => a.issue - b.issue);
}

/** Swap the issue's priority labels for the chosen one (prefixed like every pipeline label). */
export function priorityMove(
  current: readonly string[],
  priority: string,
  definition: PipelineDefinition,
): { add: string[]; remove: string[] } {
  const prefix = definition.labelPrefix;
  const wanted = realLabel(priority, prefix);
  const labels = definition.prioritizer?.labels ?? [];
  return {
    add: [wanted],
    remove: current.filter((l) => {
      const bare = bareLabel(l, prefix);
      return l !== wanted && bare !== undefined && labels.includes(bare);
    }),
  };
}
