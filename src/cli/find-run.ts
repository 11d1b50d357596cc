/**
 * Finds the run of an issue of a repository for the control commands: by the
 * deterministic Workflow ID when --agent is given, else by the RepoId and IssueNumber
 * search attributes (the live run first, then the newest), falling back to the default
 * agent's ID while visibility has not caught up with a run started a moment ago.
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import type { CliTemporal } from '../host/temporal/temporal-client.js';
import { workflowIdFor } from '../host/repo-identity.js';

export interface FoundRun {
  readonly workflowId: string;
  readonly status: string;
}

async function describeOrUndefined(cli: CliTemporal, workflowId: string): Promise<FoundRun | undefined> {
  try {
    const d = await cli.client.workflow.getHandle(workflowId).describe();
    return { workflowId, status: d.status.name };
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return undefined;
    throw err;
  }
}

/** Every run of this repository's issue, newest first (at most 20). */
export async function listRuns(cli: CliTemporal, repoId: string, issue: number): Promise<FoundRun[]> {
  const query = `RepoId = ${JSON.stringify(repoId)} AND IssueNumber = ${issue}`;
  const runs: FoundRun[] = [];
  for await (const w of cli.client.workflow.list({ query, pageSize: 20 })) {
    if (!runs.some((r) => r.workflowId === w.workflowId))
      runs.push({ workflowId: w.workflowId, status: w.status.name });
    if (runs.length >= 20) break;
  }
  return runs;
}

export async function findRun(
  cli: CliTemporal,
  target: { repoId: string; issue: number; agentName?: string; defaultAgentName: string },
): Promise<FoundRun | undefined> {
  if (target.agentName !== undefined) {
    return describeOrUndefined(cli, workflowIdFor(target.repoId, target.agentName, target.issue));
  }
  const runs = await listRuns(cli, target.repoId, target.issue);
  const found = runs.find((r) => r.status === 'RUNNING') ?? runs[0];
  return found ?? describeOrUndefined(cli, workflowIdFor(target.repoId, target.defaultAgentName, target.issue));
}
