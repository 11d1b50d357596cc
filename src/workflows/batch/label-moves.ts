/**
 * The label moves of a batch issue's state machine: ready → in-progress when its run
 * starts, then done | blocked | ready by how it ended. Pure.
 */
import type { BatchIssueResult, BatchLabels } from '../../contracts/batch.js';

export interface LabelMove {
  readonly add: readonly string[];
  readonly remove: readonly string[];
}

/** ready (or a previous terminal label) → in-progress. */
export function startMove(labels: BatchLabels): LabelMove {
  return {
    add: [labels.inProgress],
    remove: [labels.ready, labels.done, labels.blocked].filter((l) => l !== labels.inProgress),
  };
}

/** in-progress → done (succeeded) | ready (cancelled: a later batch may pick it up) | blocked (anything else: a human looks). */
export function finalMove(outcome: BatchIssueResult['outcome'], labels: BatchLabels): LabelMove {
  const target = outcome === 'succeeded' ? labels.done : outcome === 'cancelled' ? labels.ready : labels.blocked;
  return {
    add: [target],
    remove: [labels.ready, labels.inProgress, labels.done, labels.blocked].filter((l) => l !== target),
  };
}
