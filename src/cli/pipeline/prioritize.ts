/**
 * `start-pipeline --prioritize` (upstream batch-runner `--prioritize`): runs the
 * prioritizer agent once over the open issues and applies the priority labels it chose,
 * then exits; the batch form then queues issues in that order.
 *
 * Our run works in one issue's worktree, so the prioritizer's run is keyed to the
 * lowest-numbered open issue (`issue` parameter) and is given the whole list as its
 * `issues` parameter (JSON text `[{number,title,labels}]`, `{uv-issues}` in its prompt)
 * and the allowed labels as `labels`; its Workflow ID is `<repo-id>/<agent>/prioritize`.
 * Its answer is the `priorities` handoff field (priorities.ts).
 */
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import type { IssueSnapshot } from '../../contracts/activities.js';
import { withParameterDefaults } from '../../contracts/parameter-values.js';
import type { PipelineDefinition } from '../../contracts/pipeline.js';
import type { PipelineInput } from '../../contracts/pipeline-run.js';
import type { RunInput } from '../../contracts/run.js';
import type { IssueSource } from '../../activities/issues/issue-source.js';
import { readRunResult } from '../../host/run-result.js';
import { loadAgentDefinitionOrThrow } from '../../definition/load/load-agent-definition.js';
import { runAgentWorkflow } from '../../workflows/run-agent.js';
import { AgentNameKey, RepoIdKey } from '../../workflows/run/search-attributes.js';
import { serveUntilDone } from '../serve-until-done.js';
import type { CliTemporal } from '../../host/temporal/temporal-client.js';
import { checkPriorities, prioritiesOf, priorityMove, type PriorityRow } from './priorities.js';
import { prioritizerAgentDir } from './pipeline-source.js';

export interface PrioritizeOptions extends Pick<
  PipelineInput,
  'repoPath' | 'issueSource' | 'artifactsDir' | 'delivery' | 'overrides' | 'repoInstructions'
> {
  readonly repoId: string;
  readonly definition: PipelineDefinition;
  readonly embedded: boolean;
  readonly label?: string;
  readonly issues: IssueSource;
  readonly say: (line: string) => void;
}

export interface PrioritizeOutcome {
  readonly ok: boolean;
  readonly workflowId?: string;
  readonly rows: readonly (PriorityRow & { readonly labels?: readonly string[] })[];
  readonly table: string;
}

function configError(message: string, expected: string): AgentError {
  return new AgentError(FailureType.ConfigInvalid, message, { where: 'prioritizer', expected });
}

export async function prioritizeIssues(cli: CliTemporal, o: PrioritizeOptions): Promise<PrioritizeOutcome> {
  const prioritizer = o.definition.prioritizer;
  const agentDir = prioritizerAgentDir(o.definition);
  if (prioritizer === undefined || agentDir === undefined)
    throw configError(`${o.definition.path} declares no prioritizer`, '"prioritizer": {agent, labels, defaultLabel?}');
  const open: IssueSnapshot[] = await o.issues.list({
    state: 'open',
    ...(o.label === undefined ? {} : { label: o.label }),
  });
  if (open.length === 0) return { ok: true, rows: [], table: 'no open issues to prioritize' };
  const agent = await loadAgentDefinitionOrThrow(agentDir, o.overrides);
  if (agent.parameters['issues'] === undefined)
    throw configError(
      `the prioritizer agent ${agent.name} (${agentDir}) declares no "issues" parameter`,
      'a string parameter "issues" (the open issues as JSON) and a closure step with "priorities" among its handoffFields',
    );
  const subject = Math.min(...open.map((i) => i.number));
  const list = open.map((i) => ({ number: i.number, title: i.title, labels: i.labels }));
  const parameters = withParameterDefaults(agent.parameters, {
    issues: JSON.stringify(list),
    ...(agent.parameters['labels'] ? { labels: JSON.stringify(prioritizer.labels) } : {}),
    ...(agent.parameters['issue']
      ? { issue: agent.parameters['issue'].type === 'number' ? subject : String(subject) }
      : {}),
  });
  const input: RunInput = {
    issue: subject,
    agentDir: agent.agentDir,
    repoPath: o.repoPath,
    issueSource: o.issueSource,
    artifactsDir: o.artifactsDir,
    parameters,
    ...(o.delivery ? { delivery: o.delivery } : {}),
    ...(o.overrides ? { overrides: o.overrides } : {}),
    ...(o.repoInstructions ? { repoInstructions: o.repoInstructions } : {}),
  };
  const workflowId = `${o.repoId}/${agent.name}/prioritize`;
  await cli.client.workflow.start(runAgentWorkflow, {
    taskQueue: cli.taskQueue,
    workflowId,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    staticSummary: `Prioritize ${open.length} open issue(s) with ${agent.name}`.slice(0, 200),
    typedSearchAttributes: [
      { key: RepoIdKey, value: o.repoId },
      { key: AgentNameKey, value: agent.name },
    ],
  });
  o.say(`prioritizer run ${workflowId} over ${open.length} open issue(s)`);
  const handle = cli.client.workflow.getHandle<typeof runAgentWorkflow>(workflowId);
  const result = await serveUntilDone(cli, readRunResult(handle), { embedded: o.embedded });
  if (result.outcome !== 'success')
    return { ok: false, workflowId, rows: [], table: `the prioritizer run ${result.outcome}: ${result.reason}` };
  const entries = prioritiesOf(result);
  if (entries === undefined)
    return {
      ok: false,
      workflowId,
      rows: [],
      table: 'the prioritizer gave no "priorities" list (a handoff field of its closure step)',
    };
  const rows: (PriorityRow & { labels?: readonly string[] })[] = [];
  for (const row of checkPriorities(
    entries,
    prioritizer,
    list.map((i) => i.number),
  )) {
    if (row.priority === undefined) {
      rows.push(row);
      continue;
    }
    const current = open.find((i) => i.number === row.issue)!.labels;
    const labels = await o.issues.relabel(row.issue, priorityMove(current, row.priority, o.definition));
    rows.push({ ...row, labels });
  }
  const table = [
    'issue  priority  labels',
    ...rows.map(
      (r) =>
        `#${r.issue}`.padEnd(7) +
        (r.priority ?? '-').padEnd(10) +
        (r.labels?.join(', ') ?? '') +
        (r.note ? `  (${r.note})` : ''),
    ),
    '',
    `${rows.filter((r) => r.priority !== undefined).length} of ${open.length} open issue(s) prioritized`,
  ].join('\n');
  return { ok: rows.every((r) => r.priority !== undefined), workflowId, rows, table };
}
