/**
 * `npm run start-batch -- --label ready --concurrency 3`: starts (or attaches to) the
 * batch workflow `<agent>-batch-<label>` that works every selected issue in its own child
 * run, serves it with an in-process worker when no worker polls the task queue, prints
 * live progress and finally the result table. Exit 0 when every issue succeeded. Every
 * human line goes through printLine, and the table's cells through terminalLine before
 * they are measured: a run's reason quotes the model and the tested code. `--json` is
 * written as is.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type BatchInput,
  type BatchIssueProgress,
  type BatchProgress,
  type BatchResult,
} from '../../contracts/batch.js';
import { artifactsDirOf } from '../../host/state-paths.js';
import { requireModelCredentials } from '../../host/model-credentials.js';
import { repoIdentity } from '../../host/repo-identity.js';
import { configuredRunFields, repoSettings } from '../../definition/repo-config/repo-settings.js';
import { workflowUrl } from '../../host/temporal/ensure-temporal.js';
import { runBatchWorkflow } from '../../workflows/batch/run-batch.js';
import { batchProgressQuery } from '../../workflows/batch/batch-messages.js';
import { commandFlags } from '../flags/command-specs.js';
import { batchWorkflowId, parseBatchFlags } from '../flags/batch-flags.js';
import { localRepositoryOf, loadRepoDefinition } from '../run-target.js';
import { closureActionNotice } from '../../definition/normalise/closure-action.js';
import { serveUntilDone } from '../serve-until-done.js';
import { connectCli, hasPollers, type CliTemporal } from '../../host/temporal/temporal-client.js';
import { printLine, terminalLine } from '../../host/terminal-text.js';

const time = (): string => new Date().toISOString().slice(11, 19);

function issueLine(i: BatchIssueProgress, row: BatchProgress['results'][number] | undefined): string {
  if (row === undefined) return `#${i.issue} ${i.state} (${i.workflowId})`;
  const cost = `${row.steps} steps · ${row.tokens} tokens · $${row.costUsd.toFixed(4)}`;
  return `#${i.issue} ${i.state} · ${cost}${row.outcome === 'succeeded' ? '' : ` · ${row.reason.slice(0, 160)}`}`;
}

async function follow(
  handle: { query: (q: typeof batchProgressQuery) => Promise<BatchProgress> },
  done: () => boolean,
): Promise<void> {
  const seen = new Map<number, string>();
  let lastCounts = '';
  while (!done()) {
    try {
      const p = await handle.query(batchProgressQuery);
      for (const i of p.issues) {
        if (seen.get(i.issue) === i.state) continue;
        seen.set(i.issue, i.state);
        if (i.state === 'queued') continue;
        printLine(
          process.stdout,
          `${time()} ${issueLine(
            i,
            p.results.find((r) => r.issue === i.issue),
          )}`,
        );
      }
      const c = p.counts;
      const counts = `${p.phase} · ${c.total} issues · ${c.running} running · ${c.queued} queued · ${c.succeeded} succeeded · ${c.partial + c.failed + c.cancelled} not`;
      if (counts !== lastCounts) printLine(process.stdout, `${time()} batch ${counts}`);
      lastCounts = counts;
    } catch {
      // No workflow task yet, or just finished: try again.
    }
    await sleep(1000);
  }
}

export function resultTable(result: BatchResult): string {
  const rows = result.results.map((r) =>
    [
      `#${r.issue}`,
      r.outcome,
      String(r.steps),
      String(r.tokens),
      `$${r.costUsd.toFixed(4)}`,
      r.prUrl ?? '-',
      r.reason.replace(/\s+/g, ' ').slice(0, 100),
    ].map(terminalLine),
  );
  const header = ['issue', 'outcome', 'steps', 'tokens', 'cost', 'PR', 'reason'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  const c = result.counts;
  return [
    line(header),
    ...rows.map(line),
    '',
    `batch ${result.status}: ${c.succeeded} succeeded, ${c.partial} partial, ${c.failed} failed, ${c.cancelled} cancelled, ${c.skipped} skipped · ${result.totalTokens} tokens · $${result.totalCostUsd.toFixed(4)} · at most ${result.maxConcurrent} at once`,
  ].join('\n');
}

async function awaitBatch(
  cli: CliTemporal,
  workflowId: string,
  options: { follow: boolean; embedded: boolean },
): Promise<BatchResult> {
  const handle = cli.client.workflow.getHandle<typeof runBatchWorkflow>(workflowId);
  return serveUntilDone(cli, handle.result(), {
    embedded: options.embedded,
    ...(options.follow ? { follow: (done: () => boolean) => follow(handle, done) } : {}),
  });
}

export async function startBatchCommand(argv: readonly string[]): Promise<number> {
  const flags = commandFlags('start-batch', argv);
  if (flags === undefined) return 0;
  const batch = parseBatchFlags(flags);
  const repoPath = await localRepositoryOf(flags, { needsCommit: true });
  const settings = await repoSettings(repoPath);
  const definition = await loadRepoDefinition(flags, repoPath, settings);
  const repo = await repoIdentity(repoPath);

  const cli = await connectCli();
  try {
    for (const note of settings.notes) printLine(process.stderr, note);
    const closureNotice = closureActionNotice(definition);
    if (closureNotice !== undefined) printLine(process.stderr, `note: ${closureNotice}`);
    const embedded = !(await hasPollers(cli));
    // Checked before anything starts: otherwise every issue would end blocked on MODEL_AUTH.
    if (embedded && !flags['detach']) requireModelCredentials();
    const workflowId = `${repo.id}/${batchWorkflowId(definition.name, batch.selection)}`;
    const input: BatchInput = {
      agentName: definition.name,
      agentDir: definition.agentDir,
      repoPath,
      issueSource: batch.issueSource,
      delivery: batch.delivery,
      artifactsDir: artifactsDirOf(repo.commonDir),
      repoId: repo.id,
      overrides: settings.overrides,
      repoInstructions: settings.instructions,
      selection: batch.selection,
      concurrency: batch.concurrency,
      labels: { ready: batch.readyLabel },
      ...configuredRunFields(settings),
    };
    const existing = await cli.client.workflow
      .getHandle(workflowId)
      .describe()
      .catch(() => undefined);
    const attaching = existing?.status.name === 'RUNNING';
    if (!attaching) {
      await cli.client.workflow.start(runBatchWorkflow, {
        taskQueue: cli.taskQueue,
        workflowId,
        args: [input],
        workflowIdConflictPolicy: 'USE_EXISTING',
        staticSummary:
          `Batch of ${definition.name}: ${batch.selection.kind === 'label' ? `label ${batch.readyLabel}` : `issues ${flags['issue-list']}`}, ${batch.concurrency} at once`.slice(
            0,
            200,
          ),
      });
    }
    const url = workflowUrl(cli.target, workflowId);
    printLine(
      process.stderr,
      `${attaching ? 'attached to the live batch' : 'started batch'} ${workflowId}\nWeb UI: ${url}`,
    );
    if (flags['detach']) {
      if (embedded) printLine(process.stderr, 'warning: no worker polls the task queue; start one with npm run worker');
      return 0;
    }
    if (embedded)
      printLine(process.stderr, `no worker on task queue ${cli.taskQueue}: serving the batch in this process`);
    const result = await awaitBatch(cli, workflowId, { follow: flags['follow'] === true, embedded });
    if (flags['json']) process.stdout.write(`${JSON.stringify({ url, ...result })}\n`);
    else printLine(process.stdout, `${resultTable(result)}\nWeb UI: ${url}`);
    return result.status === 'completed' ? 0 : 1;
  } finally {
    await cli.close();
  }
}
