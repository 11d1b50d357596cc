/**
 * `status`, `retry` and `cancel`: query and signal the run of an issue. The same
 * signals work from the Web UI and `temporal workflow signal --name retry|cancel`.
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import { AgentError } from '../../contracts/errors.js';
import type { RunProgress, RunResult } from '../../contracts/run.js';
import { workflowUrl } from '../temporal/ensure-temporal.js';
import { cancelSignal, progressQuery, retrySignal } from '../../workflows/run/messages.js';
import { reviveFailedRun } from '../revive-failed-run.js';
import type { runAgentWorkflow } from '../../workflows/run-agent.js';
import { COMMANDS, renderHelp } from '../command-specs.js';
import { optionalString, parseFlags, requireIssue, type ParsedFlags } from '../parse-flags.js';
import { progressLine, resultSummary } from '../progress-format.js';
import { loadDefinition, workflowIdFor } from '../run-target.js';
import { connectCli, type CliTemporal } from '../temporal/temporal-client.js';

async function withRun<T>(
  name: string,
  argv: readonly string[],
  fn: (ctx: { cli: CliTemporal; workflowId: string; flags: ParsedFlags }) => Promise<T>,
): Promise<T | number> {
  const spec = COMMANDS[name]!;
  const flags = parseFlags(spec, argv);
  if (flags['help']) {
    process.stdout.write(`${renderHelp(spec)}\n`);
    return 0;
  }
  const issue = requireIssue(flags);
  const definition = await loadDefinition(flags);
  const cli = await connectCli();
  try {
    const workflowId = workflowIdFor(definition.name, issue);
    try {
      await cli.client.workflow.getHandle(workflowId).describe();
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) {
        throw new AgentError('RUN_NOT_FOUND', `no run ${workflowId} exists`, {
          where: '--issue',
          expected: `a run started with npm run start-run -- --issue ${issue}`,
        });
      }
      throw err;
    }
    return await fn({ cli, workflowId, flags });
  } finally {
    await cli.close();
  }
}

export async function statusCommand(argv: readonly string[]): Promise<number> {
  const code = await withRun('status', argv, async ({ cli, workflowId, flags }) => {
    const handle = cli.client.workflow.getHandle<typeof runAgentWorkflow>(workflowId);
    const description = await handle.describe();
    const status = description.status.name;
    const progress: RunProgress | undefined = await handle.query(progressQuery).catch(() => undefined);
    const result: RunResult | undefined =
      status === 'RUNNING' ? undefined : await handle.result().catch(() => undefined);
    const url = workflowUrl(cli.target, workflowId);
    if (flags['json']) {
      process.stdout.write(`${JSON.stringify({ workflowId, status, url, progress, result })}\n`);
    } else {
      const lines = [`run: ${workflowId} (${status})`, `Web UI: ${url}`];
      if (progress) lines.push(progressLine(progress), `definition: ${progress.definitionHash.slice(0, 12)}`);
      if (progress?.worktreePath) lines.push(`worktree: ${progress.worktreePath} (branch ${progress.branch})`);
      if (result) lines.push(resultSummary(result));
      process.stdout.write(`${lines.join('\n')}\n`);
    }
    return 0;
  });
  return code;
}

export async function retryCommand(argv: readonly string[]): Promise<number> {
  return withRun('retry', argv, async ({ cli, workflowId, flags }) => {
    const prompt = optionalString(flags, 'prompt');
    const revival = await reviveFailedRun(cli, workflowId);
    if (revival.kind !== 'live') {
      process.stdout.write(revival.message);
      return revival.kind === 'revived' ? 0 : 1;
    }
    await cli.client.workflow.getHandle(workflowId).signal(retrySignal, prompt === undefined ? {} : { prompt });
    process.stdout.write(
      `retry signalled to ${workflowId}${prompt === undefined ? '' : ' with a prompt for the next iteration'}\n`,
    );
    return 0;
  });
}

export async function cancelCommand(argv: readonly string[]): Promise<number> {
  return withRun('cancel', argv, async ({ cli, workflowId, flags }) => {
    const reason = optionalString(flags, 'reason');
    await cli.client.workflow.getHandle(workflowId).signal(cancelSignal, reason === undefined ? {} : { reason });
    process.stdout.write(`cancel signalled to ${workflowId}: the running step stops and the worktree is kept\n`);
    return 0;
  });
}
