/**
 * `status`, `retry` and `cancel`: query and signal the run of an issue, found from
 * --repo (default: the current directory) and --issue alone (--agent narrows it).
 * The same signals work from the Web UI and `temporal workflow signal --name retry|cancel`.
 * What they print of a run (its reason, steps, branch) goes through printLine.
 */
import { AgentError } from '../../contracts/errors.js';
import type { RunProgress, RunResult } from '../../contracts/run.js';
import { workflowUrl } from '../../host/temporal/ensure-temporal.js';
import { printLine } from '../../host/terminal-text.js';
import { cancelSignal, progressQuery, retrySignal } from '../../workflows/run/messages.js';
import { reviveFailedRun } from '../revive-failed-run.js';
import type { runAgentWorkflow } from '../../workflows/run-agent.js';
import { commandFlags } from '../flags/command-specs.js';
import { optionalString, requireIssue, type ParsedFlags } from '../flags/parse-flags.js';
import { readRunResult } from '../../host/run-result.js';
import { newWarningLines, hostLine, progressLine, resultSummary, waitingLine } from '../../host/progress-format.js';
import { loadDefinition } from '../run-target.js';
import { runRepository } from '../run-repository.js';
import { findRun } from '../find-run.js';
import { connectCli, livePollers, type CliTemporal } from '../../host/temporal/temporal-client.js';

/** A query needs a worker; without one the answer comes from the server's own records. */
const QUERY_DEADLINE_MS = 1000;

export async function withRun<T>(
  name: string,
  argv: readonly string[],
  fn: (ctx: { cli: CliTemporal; workflowId: string; flags: ParsedFlags; local?: string }) => Promise<T>,
): Promise<T | number> {
  const flags = commandFlags(name, argv);
  if (flags === undefined) return 0;
  const issue = requireIssue(flags);
  const repo = await runRepository(optionalString(flags, 'repo'), { clone: false });
  const repoPath = repo.repoPath;
  const definition = await loadDefinition(flags);
  const cli = await connectCli();
  try {
    const found = await findRun(cli, {
      repoId: repo.id,
      issue,
      defaultAgentName: definition.name,
      ...(typeof flags['agent'] === 'string' ? { agentName: definition.name } : {}),
    });
    if (found === undefined) {
      throw new AgentError(
        'RUN_NOT_FOUND',
        `no run of issue ${issue} of ${repoPath} exists (repository id ${repo.id})`,
        {
          where: '--issue',
          expected: `a run started with issue-agent start-run --issue ${issue} --repo ${repoPath}`,
        },
      );
    }
    return await fn({ cli, workflowId: found.workflowId, flags, ...(repo.remote ? {} : { local: repo.localPath }) });
  } finally {
    await cli.close();
  }
}

async function quickProgress(cli: CliTemporal, workflowId: string): Promise<RunProgress | undefined> {
  const handle = cli.client.workflow.getHandle<typeof runAgentWorkflow>(workflowId);
  return cli.client.connection
    .withDeadline(Date.now() + QUERY_DEADLINE_MS, () => handle.query(progressQuery))
    .catch(() => undefined);
}

export async function statusCommand(argv: readonly string[]): Promise<number> {
  const code = await withRun('status', argv, async ({ cli, workflowId, flags }) => {
    const handle = cli.client.workflow.getHandle<typeof runAgentWorkflow>(workflowId);
    const description = await handle.describe();
    const status = description.status.name;
    const running = status === 'RUNNING';
    const progress = running ? await quickProgress(cli, workflowId) : undefined;
    const result: RunResult | undefined = running ? undefined : await readRunResult(handle).catch(() => undefined);
    // Without a worker to answer the query: what the run last recorded as search attributes.
    const attrs = description.searchAttributes as Record<string, unknown[] | undefined>;
    const recorded = {
      phase: attrs['RunPhase']?.[0],
      step: attrs['StepId']?.[0],
      costUsd: attrs['CostUsd']?.[0],
      tokens: attrs['TokensTotal']?.[0],
    };
    const url = workflowUrl(cli.target, workflowId);
    if (flags['json']) {
      process.stdout.write(
        `${JSON.stringify({ workflowId, status, url, progress, ...(progress ? {} : { recorded }), result })}\n`,
      );
    } else {
      const lines = [`run: ${workflowId} (${status})`, `Web UI: ${url}`];
      if (progress) lines.push(progressLine(progress), `definition: ${progress.definitionHash.slice(0, 12)}`);
      const waiting = progress === undefined ? undefined : waitingLine(progress);
      if (waiting !== undefined) lines.push(waiting);
      else if (running)
        lines.push(
          `no worker answered within ${QUERY_DEADLINE_MS / 1000} s; last recorded: phase ${String(recorded.phase ?? '?')}, step ${String(recorded.step ?? '?')}`,
        );
      if (progress?.worktreePath) lines.push(`worktree: ${progress.worktreePath} (branch ${progress.branch})`);
      if (progress?.host) lines.push(hostLine(progress.host));
      // A finished run's summary lists its warnings itself.
      if (progress && !result) lines.push(...newWarningLines(progress, new Set()));
      if (result) lines.push(resultSummary(result));
      printLine(process.stdout, lines.join('\n'));
    }
    return 0;
  });
  return code;
}

export async function retryCommand(argv: readonly string[]): Promise<number> {
  return withRun('retry', argv, async ({ cli, workflowId, flags }) => {
    const prompt = optionalString(flags, 'prompt');
    const revival = await reviveFailedRun(cli, workflowId, prompt);
    if (revival.kind !== 'live') {
      printLine(process.stdout, revival.message.replace(/\n$/, ''));
      return revival.kind === 'revived' ? 0 : 1;
    }
    await cli.client.workflow.getHandle(workflowId).signal(retrySignal, prompt === undefined ? {} : { prompt });
    printLine(
      process.stdout,
      `retry signalled to ${workflowId}${prompt === undefined ? '' : ' with guidance for the next iteration'}`,
    );
    return 0;
  });
}

export async function cancelCommand(argv: readonly string[]): Promise<number> {
  return withRun('cancel', argv, async ({ cli, workflowId, flags }) => {
    const reason = optionalString(flags, 'reason');
    const handle = cli.client.workflow.getHandle(workflowId);
    await handle.signal(cancelSignal, reason === undefined ? {} : { reason });
    // The signal carries the reason; the cancel request makes the run end CANCELLED in Temporal.
    await handle.cancel();
    // Only a worker acts on it: without one the run stays RUNNING, which `status` would show unexplained.
    const queue = (await handle.describe()).taskQueue;
    const served = (await livePollers({ ...cli, taskQueue: queue })) > 0;
    printLine(
      process.stdout,
      served
        ? `cancel signalled to ${workflowId}: the running step stops and the worktree is kept`
        : `cancel signalled to ${workflowId}: no worker serves its task queue ${queue} now, so the run stays RUNNING until one does (\`issue-agent worker\` with TEMPORAL_TASK_QUEUE=${queue}); then it ends cancelled, the worktree kept`,
    );
    return 0;
  });
}
