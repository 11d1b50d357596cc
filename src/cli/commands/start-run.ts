/**
 * `npm run start-run -- --issue N`: starts the run for an issue, or attaches to the
 * live one (Workflow ID `<agent>-issue-<n>`), serves it with an in-process worker
 * when no worker polls the task queue, follows progress and waits for the result.
 */
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { UsageError } from '../../contracts/errors.js';
import type { IssueSourceKind, RunInput, RunProgress, RunResult } from '../../contracts/run.js';
import { createIssueSourceFactory } from '../../activities/issues/issue-source-factory.js';
import { PROJECT_ROOT } from '../temporal/temporal-cli.js';
import { workflowUrl } from '../temporal/ensure-temporal.js';
import { runAgentWorkflow } from '../../workflows/run-agent.js';
import { progressQuery } from '../../workflows/run/messages.js';
import { COMMANDS, renderHelp } from '../command-specs.js';
import { optionalNumber, optionalString, parseFlags, requireIssue, type ParsedFlags } from '../parse-flags.js';
import { progressKey, progressLine, resultSummary } from '../progress-format.js';
import { checkRepository, loadDefinition, resolveUserPath, userCwd, workflowIdFor } from '../run-target.js';
import { serveUntilDone } from '../serve-until-done.js';
import { extractAgentParameters, resolveAgentParameters } from '../agent-parameters.js';
import { connectCli, hasPollers, type CliTemporal } from '../temporal/temporal-client.js';

function issueSourceOf(flags: ParsedFlags): IssueSourceKind {
  const raw = optionalString(flags, 'issues') ?? 'local';
  if (raw === 'local' || raw === 'github') return raw;
  throw new UsageError(`--issues must be local or github, got "${raw}"`, '--issues');
}

async function follow(
  handle: { query: (q: typeof progressQuery) => Promise<RunProgress> },
  done: () => boolean,
): Promise<void> {
  let last = '';
  while (!done()) {
    try {
      const p = await handle.query(progressQuery);
      const key = progressKey(p);
      if (key !== last) process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${progressLine(p)}\n`);
      last = key;
    } catch {
      // The run may not have a workflow task yet, or just finished: try again.
    }
    await sleep(1000);
  }
}

async function awaitResult(
  cli: CliTemporal,
  workflowId: string,
  options: { follow: boolean; embedded: boolean },
): Promise<RunResult> {
  const handle = cli.client.workflow.getHandle<typeof runAgentWorkflow>(workflowId);
  return serveUntilDone(cli, handle.result(), {
    embedded: options.embedded,
    ...(options.follow ? { follow: (done: () => boolean) => follow(handle, done) } : {}),
  });
}

export async function startRunCommand(argv: readonly string[]): Promise<number> {
  const spec = COMMANDS['start-run']!;
  // Agent parameters (--<param>, --param key=value) come out of argv before strict parsing.
  const agentParameters = await extractAgentParameters(argv, spec.flags);
  const flags = parseFlags(spec, agentParameters.argv);
  if (flags['help']) {
    process.stdout.write(`${renderHelp(spec)}\n`);
    return 0;
  }
  const issue = requireIssue(flags);
  const parameters = resolveAgentParameters(agentParameters, { issue });
  const issueSource = issueSourceOf(flags);
  const maxIterations = optionalNumber(flags, 'max-iterations', { integer: true });
  const maxUsd = optionalNumber(flags, 'budget-usd');
  const maxTokens = optionalNumber(flags, 'budget-tokens', { integer: true });
  const repoPath = resolveUserPath(optionalString(flags, 'repo') ?? userCwd());
  await checkRepository(repoPath);
  // Read the issue before anything starts: an unknown issue or a missing GITHUB_TOKEN is
  // reported here, in one line, instead of failing the run later.
  const issueSnapshot = await createIssueSourceFactory(process.env)(issueSource, repoPath).read(issue);
  const definition = await loadDefinition(flags);

  const cli = await connectCli();
  try {
    const workflowId = workflowIdFor(definition.name, issue);
    const input: RunInput = {
      issue,
      agentDir: definition.agentDir,
      repoPath,
      issueSource,
      artifactsDir: resolve(PROJECT_ROOT, '.artifacts'),
      ...(Object.keys(parameters).length === 0 ? {} : { parameters }),
      ...(maxIterations === undefined ? {} : { maxIterations }),
      ...(maxUsd === undefined && maxTokens === undefined
        ? {}
        : {
            budget: { ...(maxUsd === undefined ? {} : { maxUsd }), ...(maxTokens === undefined ? {} : { maxTokens }) },
          }),
    };
    const existing = await cli.client.workflow
      .getHandle(workflowId)
      .describe()
      .catch(() => undefined);
    const attaching = existing?.status.name === 'RUNNING';
    if (!attaching) {
      await cli.client.workflow.start(runAgentWorkflow, {
        taskQueue: cli.taskQueue,
        workflowId,
        args: [input],
        workflowIdConflictPolicy: 'USE_EXISTING',
        staticSummary: `Issue #${issue}: ${issueSnapshot.title}`.slice(0, 200),
      });
    }
    const url = workflowUrl(cli.target, workflowId);
    process.stderr.write(`${attaching ? 'attached to the live run' : 'started run'} ${workflowId}\nWeb UI: ${url}\n`);
    const embedded = !(await hasPollers(cli));
    if (flags['detach']) {
      if (embedded) process.stderr.write('warning: no worker polls the task queue; start one with npm run worker\n');
      return 0;
    }
    if (embedded) process.stderr.write(`no worker on task queue ${cli.taskQueue}: serving the run in this process\n`);
    const result = await awaitResult(cli, workflowId, { follow: flags['follow'] === true, embedded });
    process.stdout.write(
      flags['json']
        ? `${JSON.stringify({ workflowId, url, ...result })}\n`
        : `${resultSummary(result)}\nWeb UI: ${url}\n`,
    );
    return result.outcome === 'success' ? 0 : 1;
  } finally {
    await cli.close();
  }
}
