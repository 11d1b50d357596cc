/**
 * `issue-agent start-pipeline --issue N` (or `--label L --concurrency K`, or
 * `--prioritize`): runs the label pipeline of `.agent/workflow.json` over issues, one
 * durable parent workflow per issue (`<repo-id>/pipeline-<id>/issue-<n>`, the lock),
 * serves it with an in-process worker when no worker polls the task queue, prints
 * progress per issue and the result table. Exit 0 iff every pipeline completed. Every
 * human line goes through printLine (labels, titles, a prioritizer's answer, run reasons
 * are the repository's or the model's text); `--json` is written as is.
 */
import { requireModelCredentials } from '../../host/model-credentials.js';
import { AgentError, UsageError } from '../../contracts/errors.js';
import { MAX_BATCH_CONCURRENCY } from '../../contracts/batch.js';
import type { PipelineInput } from '../../contracts/pipeline-run.js';
import type { IssueSourceKind } from '../../contracts/run.js';
import { createIssueSourceFactory } from '../../activities/issues/issue-source-factory.js';
import { repoSettings } from '../../definition/repo-config/repo-settings.js';
import { commandFlags } from '../flags/command-specs.js';
import { deliveryOf } from '../flags/delivery-flag.js';
import { optionalNumber, optionalString, requireIssue, type ParsedFlags } from '../flags/parse-flags.js';
import { repoIdentity } from '../../host/repo-identity.js';
import { localRepositoryOf } from '../run-target.js';
import { serveUntilDone } from '../serve-until-done.js';
import { artifactsDirOf } from '../../host/state-paths.js';
import { workflowUrl } from '../../host/temporal/ensure-temporal.js';
import { connectCli, hasPollers } from '../../host/temporal/temporal-client.js';
import { printLine } from '../../host/terminal-text.js';
import { pipelineTable } from '../pipeline/pipeline-output.js';
import { pipelineQueue } from '../pipeline/pipeline-queue.js';
import { pipelineOf } from '../pipeline/pipeline-source.js';
import { prioritizeIssues } from '../pipeline/prioritize.js';
import { runPipelines, startPipeline, type PipelineJob } from '../pipeline/run-pipelines.js';

const say = (line: string): boolean => printLine(process.stderr, line);
const print = (flags: ParsedFlags, json: unknown, text: () => string): boolean =>
  flags['json'] ? process.stdout.write(`${JSON.stringify(json)}\n`) : printLine(process.stdout, text());

function issueSourceOf(flags: ParsedFlags, configured: IssueSourceKind | undefined): IssueSourceKind {
  const raw = optionalString(flags, 'issues') ?? configured ?? 'local';
  if (raw === 'local' || raw === 'github') return raw;
  throw new UsageError(`--issues must be local or github, got "${raw}"`, '--issues');
}

function modeOf(flags: ParsedFlags): 'issue' | 'label' | 'prioritize' {
  const chosen = [flags['issue'] !== undefined, flags['prioritize'] === true].filter(Boolean).length;
  if (chosen > 1) throw new UsageError('choose one of --issue N or --prioritize', '--issue');
  if (flags['prioritize'] === true) return 'prioritize';
  if (flags['issue'] !== undefined) {
    if (flags['label'] !== undefined)
      throw new UsageError('--label is for the batch form; not with --issue', '--label');
    return 'issue';
  }
  if (flags['label'] !== undefined) return 'label';
  throw new UsageError('choose the issues: --issue N, or --label NAME for every open issue with that label', '--issue');
}

function checkCredentials(embedded: boolean): void {
  if (embedded) requireModelCredentials();
}

export async function startPipelineCommand(argv: readonly string[]): Promise<number> {
  const flags = commandFlags('start-pipeline', argv);
  if (flags === undefined) return 0;
  const mode = modeOf(flags);
  const concurrency = optionalNumber(flags, 'concurrency', { integer: true }) ?? 3;
  if (concurrency > MAX_BATCH_CONCURRENCY)
    throw new UsageError(`--concurrency must be at most ${MAX_BATCH_CONCURRENCY}, got ${concurrency}`, '--concurrency');
  const repoPath = await localRepositoryOf(flags, { needsCommit: true });
  const settings = await repoSettings(repoPath);
  const issueSource = issueSourceOf(flags, settings.config.issues);
  const delivery = deliveryOf(flags, issueSource, settings.config.deliver);
  const definition = await pipelineOf(flags, repoPath);
  const repo = await repoIdentity(repoPath);
  const issues = createIssueSourceFactory(process.env)(issueSource, repoPath);
  const label = optionalString(flags, 'label');

  let jobs: PipelineJob[] = [];
  if (mode === 'issue') {
    const issue = requireIssue(flags);
    const snapshot = await issues.read(issue);
    if (snapshot.state === 'closed')
      throw new AgentError('ISSUE_CLOSED', `issue ${issue} of ${repoPath} is closed; no pipeline was started`, {
        where: '--issue',
        expected: 'an open issue',
      });
    jobs = [{ issue, title: snapshot.title }];
  } else if (mode === 'label') {
    const queue = pipelineQueue(await issues.list({ label: label!, state: 'open' }), definition);
    say(
      `${queue.length} open issue(s) labelled ${label} in an actionable phase: ${queue.map((q) => `#${q.number} ${q.phase}${q.priority ? ` (${q.priority})` : ''}`).join(', ') || 'none'}`,
    );
    jobs = queue.map((q) => ({ issue: q.number, title: q.title }));
  }

  const cli = await connectCli();
  try {
    for (const note of settings.notes) say(note);
    const embedded = !(await hasPollers(cli));
    if (!flags['detach']) checkCredentials(embedded);
    const base = {
      repoPath,
      issueSource,
      repoId: repo.id,
      artifactsDir: artifactsDirOf(repo.commonDir),
      delivery,
      overrides: settings.overrides,
      repoInstructions: settings.instructions,
    };
    if (mode === 'prioritize') {
      const outcome = await prioritizeIssues(cli, {
        ...base,
        definition,
        embedded,
        ...(label === undefined ? {} : { label }),
        issues,
        say,
      });
      print(flags, outcome, () => outcome.table);
      return outcome.ok ? 0 : 1;
    }
    const options = {
      repoId: repo.id,
      definition,
      concurrency,
      inputOf: (issue: number): PipelineInput => ({ ...base, issue, definition }),
      say,
      onStarted: (workflowId: string, attached: boolean) =>
        say(
          `${attached ? 'attached to the live pipeline' : 'started pipeline'} ${workflowId}\nWeb UI: ${workflowUrl(cli.target, workflowId)}`,
        ),
    };
    if (flags['detach']) {
      for (const job of jobs) await startPipeline(cli, options, job);
      if (embedded) say('warning: no worker polls the task queue; start one with issue-agent worker');
      return 0;
    }
    if (embedded) say(`no worker on task queue ${cli.taskQueue}: serving the pipelines in this process`);
    const results = await serveUntilDone(cli, runPipelines(cli, options, jobs, flags['follow'] === true), { embedded });
    print(flags, { results }, () => pipelineTable(results));
    return results.length === jobs.length && results.every((r) => r.status === 'completed') ? 0 : 1;
  } finally {
    await cli.close();
  }
}
