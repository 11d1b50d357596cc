/**
 * What label sync must do, computed without I/O: the labels a pipeline declares (with
 * its labelPrefix applied — upstream's sync ignored the prefix and created bare labels
 * the pipeline then never used) against the catalog's current labels. A missing label
 * is created; a colour (compared case-insensitively) or description that drifted is
 * updated; the rest is left alone. Labels the pipeline does not declare are never touched.
 */
import type { PipelineDefinition } from '../../contracts/pipeline.js';
import type { CatalogLabel } from './label-catalog.js';

export const LabelSyncAction = { Create: 'create', Update: 'update', Unchanged: 'unchanged' } as const;
export type LabelSyncAction = (typeof LabelSyncAction)[keyof typeof LabelSyncAction];

export interface LabelSyncStep {
  readonly action: LabelSyncAction;
  readonly label: CatalogLabel;
  /** The catalog's label before the change (update and unchanged). */
  readonly current?: CatalogLabel;
}

/** The real labels a pipeline declares: `<labelPrefix>:<bare>` when it has a prefix, in file order. */
export function declaredLabels(pipeline: Pick<PipelineDefinition, 'labels' | 'labelPrefix'>): CatalogLabel[] {
  return Object.entries(pipeline.labels).map(([bare, spec]) => ({
    name: pipeline.labelPrefix === undefined ? bare : `${pipeline.labelPrefix}:${bare}`,
    color: spec.color.toLowerCase(),
    description: spec.description,
  }));
}

export function planLabelSync(desired: readonly CatalogLabel[], current: readonly CatalogLabel[]): LabelSyncStep[] {
  const byName = new Map(current.map((l) => [l.name, l]));
  return desired.map((label) => {
    const now = byName.get(label.name);
    if (now === undefined) return { action: LabelSyncAction.Create, label };
    const same = now.color.toLowerCase() === label.color.toLowerCase() && now.description === label.description;
    return { action: same ? LabelSyncAction.Unchanged : LabelSyncAction.Update, label, current: now };
  });
}
