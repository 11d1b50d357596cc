/**
 * `issue-agent watch`: starts the repository's watcher workflow `<repo-id>/watch` (a
 * second start finds the live one: USE_EXISTING), prints its Web UI link and returns.
 * The watcher and the runs it starts need a long-lived worker (`issue-agent worker`);
 * `--stop` sends the watcher its `stop` signal, which leaves running runs alone.
 */
import { artifactsDirOf } from '../../host/state-paths.js';
import { repoIdentity } from '../../host/repo-identity.js';
import { configuredRunFields, repoSettings } from '../../definition/repo-config/repo-settings.js';
import { workflowUrl } from '../../host/temporal/ensure-temporal.js';
import { connectCli, hasPollers } from '../../host/temporal/temporal-client.js';
import type { WatchInput } from '../../contracts/watch.js';
import { runWatchWorkflow } from '../../workflows/watch/run-watch.js';
import { stopWatchSignal } from '../../workflows/watch/watch-messages.js';
import { commandFlags } from '../flags/command-specs.js';
import { parseWatchFlags } from '../flags/watch-flags.js';
import { localRepositoryOf, loadRepoDefinition } from '../run-target.js';
import { printLine } from '../../host/terminal-text.js';

export const watchWorkflowId = (repoId: string): string => `${repoId}/watch`;

export async function watchCommand(argv: readonly string[]): Promise<number> {
  const flags = commandFlags('watch', argv);
  if (flags === undefined) return 0;
  const repoPath = await localRepositoryOf(flags, { needsCommit: true });
  const settings = await repoSettings(repoPath);
  const watch = parseWatchFlags(flags, settings.config);
  const repo = await repoIdentity(repoPath);
  const workflowId = watchWorkflowId(repo.id);
  const cli = await connectCli();
  try {
    const url = workflowUrl(cli.target, workflowId);
    if (flags['stop']) {
      await cli.client.workflow.getHandle(workflowId).signal(stopWatchSignal);
      printLine(process.stderr, `asked the watcher ${workflowId} to stop; its runs go on`);
      if (flags['json']) process.stdout.write(`${JSON.stringify({ workflowId, stopping: true })}\n`);
      return 0;
    }
    const definition = await loadRepoDefinition(flags, repoPath, settings);
    for (const note of settings.notes) printLine(process.stderr, note);
    const input: WatchInput = {
      agentName: definition.name,
      agentDir: definition.agentDir,
      repoPath,
      issueSource: watch.issueSource,
      repoId: repo.id,
      artifactsDir: artifactsDirOf(repo.commonDir),
      delivery: watch.delivery,
      overrides: settings.overrides,
      repoInstructions: settings.instructions,
      label: watch.label,
      mention: watch.mention,
      concurrency: watch.concurrency,
      pollIntervalMs: watch.pollIntervalMs,
      ...(watch.ciRounds === undefined ? {} : { ciRounds: watch.ciRounds }),
      ...configuredRunFields(settings),
      uiWorkflowsUrl: url.slice(0, url.length - encodeURIComponent(workflowId).length),
    };
    const handle = await cli.client.workflow.start(runWatchWorkflow, {
      taskQueue: cli.taskQueue,
      workflowId,
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
      staticSummary:
        `Watcher of ${repoPath}: label ${watch.label}, ${watch.mention}, ${watch.concurrency} at once`.slice(0, 200),
    });
    const fresh = handle.firstExecutionRunId;
    printLine(process.stderr, `watching ${repoPath} as ${workflowId}\nWeb UI: ${url}`);
    if (!(await hasPollers(cli)))
      printLine(process.stderr, `warning: no worker polls ${cli.taskQueue}; start one with: issue-agent worker`);
    if (flags['json']) process.stdout.write(`${JSON.stringify({ workflowId, runId: fresh, url })}\n`);
    return 0;
  } finally {
    await cli.close();
  }
}
