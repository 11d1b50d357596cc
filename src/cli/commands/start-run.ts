/**
 * `issue-agent start-run --issue N`: starts the run for an issue of a repository, or
 * attaches to the live one (Workflow ID `<repo-id>/<agent>/issue-<n>`, RepoId search
 * attribute), serves it with an in-process worker unless a live worker takes it within
 * seconds, follows progress and waits for the result. Human text goes to stderr; with
 * --json stdout carries JSON only (NDJSON progress events with --follow, then the result).
 * Starting or attaching is start-or-attach.ts; waiting for the result, await-run-result.ts.
 */
import { hasModelCredentials, requireModelCredentials } from '../../host/model-credentials.js';
import { AgentError, UsageError } from '../../contracts/errors.js';
import type { IssueSourceKind, RunInput } from '../../contracts/run.js';
import { createIssueSourceFactory } from '../../activities/issues/issue-source-factory.js';
import { baseDriftNote } from '../../activities/workspace/branch-base-drift.js';
import { startedByThisClient } from '../../host/temporal/started-by.js';
import { repoSettings } from '../../definition/repo-config/repo-settings.js';
import { workflowUrl } from '../../host/temporal/ensure-temporal.js';
import { runAgentWorkflow } from '../../workflows/run-agent.js';
import { AgentNameKey, IssueNumberKey, RepoIdKey } from '../../workflows/run/search-attributes.js';
import { COMMANDS, renderHelp } from '../flags/command-specs.js';
import { deliveryOf } from '../flags/delivery-flag.js';
import { optionalNumber, optionalString, parseFlags, requireIssue, type ParsedFlags } from '../flags/parse-flags.js';
import { keptWorkHint } from '../../host/kept-work-hint.js';
import { resultSummary } from '../../host/progress-format.js';
import { loadRepoDefinition } from '../run-target.js';
import { closureActionNotice } from '../../definition/normalise/closure-action.js';
import { assertRunVariablesBound } from '../../definition/prompt-variable-check.js';
import { runRepository, workflowIdFor } from '../run-repository.js';
import { NOT_SERVING } from '../serve-until-done.js';
import { runExitCode } from '../../contracts/run-end.js';
import { extractAgentParameters, resolveAgentParameters } from '../flags/agent-parameters.js';
import {
  connectCli,
  livePollers,
  workflowTaskTaken,
  workflowTaskTaker,
  type CliTemporal,
} from '../../host/temporal/temporal-client.js';
import { printLine } from '../../host/terminal-text.js';
import { awaitResult, releaseOrphansOfRun } from '../await-run-result.js';
import { startOrAttach } from '../start-or-attach.js';

/** How long a worker that looks alive gets to take the run before this process serves it. */
const PICKUP_TIMEOUT_MS = 5000;

/** Said when a worker of the queue took the run instead of this process. */
const TAKEN_BY_OTHER =
  "that process calls the model with its own ANTHROPIC_BASE_URL and key (this command's are not used), as every worker of the queue does; run one worker (issue-agent worker) for runs that share a task queue, or give a run its own with TEMPORAL_TASK_QUEUE";

/** What only a start applies: an invocation attaching to a live run says it did not apply them. */
const START_ONLY_FLAGS = ['deliver', 'budget-usd', 'budget-tokens', 'max-iterations', 'force'] as const;

function issueSourceOf(flags: ParsedFlags, configured: IssueSourceKind | undefined): IssueSourceKind {
  const raw = optionalString(flags, 'issues') ?? configured ?? 'local';
  if (raw === 'local' || raw === 'github') return raw;
  throw new UsageError(`--issues must be local or github, got "${raw}"`, '--issues');
}

const say = (line: string): boolean => printLine(process.stderr, line);

/** Whether this process must serve the run: no recent poller, or nobody takes its workflow task. */
async function needsOwnWorker(cli: CliTemporal, workflowId: string): Promise<boolean> {
  if ((await livePollers(cli)) === 0) {
    say(`no live worker polls task queue ${cli.taskQueue}: serving the run in this process`);
    return true;
  }
  say(`a worker polls task queue ${cli.taskQueue}; waiting up to ${PICKUP_TIMEOUT_MS / 1000} s for it to take the run`);
  if (await workflowTaskTaken(cli, workflowId, PICKUP_TIMEOUT_MS)) {
    // Any worker of the queue may take it (another start-run serving its own run too): its
    // model settings serve this run, not this command's, and the user should know whose.
    const taker = await workflowTaskTaker(cli, workflowId);
    say(`${taker === undefined ? 'a worker' : `worker ${taker}`} took the run: ${TAKEN_BY_OTHER}`);
    return false;
  }
  const stale = `no worker took the run within ${PICKUP_TIMEOUT_MS / 1000} s (a stale poller?)`;
  if (!hasModelCredentials()) {
    say(`${stale}; ${NOT_SERVING}`);
    return false;
  }
  say(`${stale}: serving it in this process`);
  return true;
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
  // A checkout, or a git URL (cloned here to read the issue and settings; the run gets the URL).
  const target = await runRepository(optionalString(flags, 'repo'), { clone: true });
  const repoPath = target.localPath;
  // The repository's .agent/config.json (or detected defaults): flags win over it.
  const settings = await repoSettings(repoPath);
  const { config } = settings;
  const issueSource = issueSourceOf(flags, config.issues);
  const maxIterations = optionalNumber(flags, 'max-iterations', { integer: true }) ?? config.maxIterations;
  const maxUsd = optionalNumber(flags, 'budget-usd') ?? config.budget?.maxUsd;
  const maxTokens = optionalNumber(flags, 'budget-tokens', { integer: true }) ?? config.budget?.maxTokens;
  const delivery = deliveryOf(flags, issueSource, config.deliver);
  if (target.remote && (delivery === 'merge' || delivery === 'squash'))
    throw new UsageError(
      `--deliver ${delivery} would move the base of ${target.repoPath} without review; a remote repository is delivered by pushing`,
      '--deliver',
    );
  // Read the issue before anything starts: an unknown issue, a closed one or a missing
  // GITHUB_TOKEN is reported here, in one line, instead of failing the run later.
  const issueSnapshot = await createIssueSourceFactory(process.env)(issueSource, repoPath).read(issue);
  if (issueSnapshot.state === 'closed' && flags['force'] !== true) {
    throw new AgentError('ISSUE_CLOSED', `issue ${issue} of ${target.repoPath} is closed; nothing was started`, {
      where: '--issue',
      expected: 'an open issue, or --force to work a closed one again',
    });
  }
  const definition = await loadRepoDefinition(flags, repoPath, settings);
  // The load refused a reachable prompt variable nothing sets; this run's parameter values decide the rest.
  await assertRunVariablesBound(definition, parameters);
  const repo = { id: target.id };
  const workflowId = workflowIdFor(repo.id, definition.name, issue);

  const cli = await connectCli();
  try {
    // What was chosen for this repository, once every check before starting has passed.
    for (const note of [...target.notes, ...settings.notes]) say(note);
    const closureNotice = closureActionNotice(definition);
    if (closureNotice !== undefined) say(`note: ${closureNotice}`);
    for (const key of ['baseBranch'] as const)
      if (config[key] !== undefined) say(`note: ${key} in .agent/config.json is not applied by this version yet`);
    // A title's own quotes escaped: it stays one quoted string (printLine makes the rest terminal-safe).
    say(`run ${workflowId}: issue #${issue} "${issueSnapshot.title.replace(/["\\]/g, '\\$&')}" of ${target.repoPath}`);
    const input: RunInput = {
      issue,
      agentDir: definition.agentDir,
      repoPath: target.repoPath,
      issueSource,
      delivery,
      artifactsDir: target.artifactsDir,
      overrides: settings.overrides,
      repoInstructions: settings.instructions,
      ...(settings.setup === undefined ? {} : { setup: settings.setup }),
      ...(settings.agentSetup ? { agentSetup: true } : {}),
      ...(Object.keys(parameters).length === 0 ? {} : { parameters }),
      ...(maxIterations === undefined ? {} : { maxIterations }),
      ...(config.answerTimeoutHours === undefined ? {} : { answerTimeoutMs: config.answerTimeoutHours * 3_600_000 }),
      ...(config.planApproval === undefined || config.planApproval === 'never'
        ? {}
        : { planApproval: config.planApproval }),
      ...(maxUsd === undefined && maxTokens === undefined && config.budget?.hardMaxUsd === undefined
        ? {}
        : {
            budget: {
              ...(maxUsd === undefined ? {} : { maxUsd }),
              ...(maxTokens === undefined ? {} : { maxTokens }),
              ...(config.budget?.hardMaxUsd === undefined ? {} : { hardMaxUsd: config.budget.hardMaxUsd }),
            },
          }),
    };
    const url = workflowUrl(cli.target, workflowId);
    const startOnly = {
      given: [
        ...START_ONLY_FLAGS.filter((name) => flags[name] !== undefined && flags[name] !== false).map((n) => `--${n}`),
        ...Object.keys(agentParameters.given).map((key) => `agent parameter ${key}`),
      ],
      cancel: `issue-agent cancel --issue ${issue}`,
    };
    const { attaching } = await startOrAttach(
      {
        describe: () =>
          cli.client.workflow
            .getHandle(workflowId)
            .describe()
            .catch(() => undefined),
        // This process serves the run when no worker polls: without model credentials it would
        // create the workflow, worktree and branch only to fail on its first model call.
        mayStart: async () => {
          if (!flags['detach'] && (await livePollers(cli)) === 0) requireModelCredentials();
        },
        // An issue branch left at an old base: re-cut by the run when untouched, else kept (branch-base-drift.ts).
        startNotes: async () => {
          const drift = target.remote
            ? undefined
            : await baseDriftNote(repoPath, definition.worktree.branchPrefix, issue);
          return drift === undefined ? [] : [drift];
        },
        start: async () => {
          const handle = await cli.client.workflow.start(runAgentWorkflow, {
            taskQueue: cli.taskQueue,
            workflowId,
            args: [input],
            workflowIdConflictPolicy: 'USE_EXISTING',
            staticSummary: `Issue #${issue}: ${issueSnapshot.title}`.slice(0, 200),
            typedSearchAttributes: [
              { key: RepoIdKey, value: repo.id },
              { key: IssueNumberKey, value: issue },
              { key: AgentNameKey, value: definition.name },
            ],
          });
          // The run exists either way; a history that cannot be read leaves the notes said, as by a start.
          return startedByThisClient(cli.client, workflowId, handle.firstExecutionRunId).catch(() => true);
        },
        releaseOrphans: (existing) => releaseOrphansOfRun(cli, existing),
        say,
      },
      { workflowId, url, startOnly },
    );
    if (flags['detach']) {
      if ((await livePollers(cli)) === 0)
        say(`warning: no live worker polls task queue ${cli.taskQueue}; start one with issue-agent worker`);
      if (flags['json']) process.stdout.write(`${JSON.stringify({ event: 'started', workflowId, url, attaching })}\n`);
      return 0;
    }
    const embedded = await needsOwnWorker(cli, workflowId);
    const json = flags['json'] === true;
    const result = await awaitResult(cli, workflowId, { follow: flags['follow'] === true, embedded, json });
    if (json) process.stdout.write(`${JSON.stringify({ event: 'result', workflowId, url, ...result })}\n`);
    else {
      const kept = target.remote
        ? undefined
        : keptWorkHint(result, { issue, repoPath: target.repoPath, repoFlag: optionalString(flags, 'repo') });
      printLine(process.stdout, `${resultSummary(result)}${kept === undefined ? '' : `\n${kept}`}\nWeb UI: ${url}`);
    }
    return runExitCode(result.outcome);
  } finally {
    await cli.close();
  }
}
