/**
 * `npm run sync-labels -- [--repo PATH] [--workflow PATH] [--issues local|github]
 * [--dry-run] [--json]`: makes the labels a pipeline declares exist with their declared
 * colour and description, one result line per label. Exit 0 when none failed, 1 when
 * some did, 2 for an invalid workflow file.
 */
import { UsageError } from '../../contracts/errors.js';
import type { IssueSourceKind } from '../../contracts/run.js';
import { createLabelCatalogFactory } from '../../activities/labels/label-catalog-factory.js';
import { declaredLabels } from '../../activities/labels/plan-label-sync.js';
import { syncLabels, type LabelSyncResult } from '../../activities/labels/apply-label-sync.js';
import {
  defaultWorkflowPath,
  loadPipelineDefinitionOrThrow,
} from '../../definition/pipeline/load-pipeline-definition.js';
import { commandFlags } from '../flags/command-specs.js';
import { optionalString } from '../flags/parse-flags.js';
import { resolveUserPath, userCwd } from '../run-target.js';
import { printLine } from '../../host/terminal-text.js';

export async function syncLabelsCommand(argv: readonly string[]): Promise<number> {
  const flags = commandFlags('sync-labels', argv);
  if (flags === undefined) return 0;
  const source = optionalString(flags, 'issues') ?? 'local';
  if (source !== 'local' && source !== 'github')
    throw new UsageError(`--issues must be local or github, got "${source}"`, '--issues');
  const repo = resolveUserPath(optionalString(flags, 'repo') ?? userCwd());
  const workflow = optionalString(flags, 'workflow');
  const pipeline = await loadPipelineDefinitionOrThrow(
    workflow === undefined ? defaultWorkflowPath(repo) : resolveUserPath(workflow),
  );
  const catalog = createLabelCatalogFactory(process.env)(source as IssueSourceKind, repo);
  const dryRun = flags['dry-run'] === true;
  const results = await syncLabels(catalog, declaredLabels(pipeline), { dryRun });
  const failed = results.some((r) => r.outcome === 'failed');
  if (flags['json']) {
    process.stdout.write(`${JSON.stringify({ workflow: pipeline.path, catalog: catalog.where, dryRun, results })}\n`);
  } else {
    const lines = [
      `Labels of pipeline '${pipeline.id}' → ${catalog.where}${dryRun ? ' (dry run: nothing changed)' : ''}:`,
      ...results.map(resultLine),
      summaryLine(results),
    ];
    if (results.length === 0) lines.splice(1, 0, '  the workflow declares no "labels": nothing to sync');
    printLine(process.stdout, lines.join('\n'));
  }
  return failed ? 1 : 0;
}

function resultLine(r: LabelSyncResult): string {
  const head = `  ${r.outcome.padEnd(9)} ${r.name}`;
  switch (r.outcome) {
    case 'created':
      return `${head} (${r.color}, ${JSON.stringify(r.description)})`;
    case 'updated': {
      const changes: string[] = [];
      if (r.previous?.color.toLowerCase() !== r.color) changes.push(`color ${r.previous?.color} → ${r.color}`);
      if (r.previous?.description !== r.description)
        changes.push(`description ${JSON.stringify(r.previous?.description)} → ${JSON.stringify(r.description)}`);
      return `${head}: ${changes.join('; ')}`;
    }
    case 'unchanged':
      return head;
    case 'failed':
      return `${head}: ${r.error ?? 'failed'}`;
  }
}

function summaryLine(results: readonly LabelSyncResult[]): string {
  const count = (o: LabelSyncResult['outcome']): number => results.filter((r) => r.outcome === o).length;
  return `labels: ${results.length} total (created=${count('created')}, updated=${count('updated')}, unchanged=${count('unchanged')}, failed=${count('failed')})`;
}
