/**
 * createPipelineActivities(deps): the pipeline workflow's I/O through the IssueSource
 * port, whose writes are idempotent (a set change of labels, a keyed comment, a close
 * that looks first), so a retried activity or a resumed cycle never acts twice.
 */
import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { PipelineActivities } from '../../contracts/pipeline-run.js';
import type { ActivityDeps } from '../deps.js';
import { atEdge } from '../edge/to-failure.js';
import { resolvePipelineAgents } from './resolve-agents.js';
import { handOverBranch } from './hand-over-branch.js';

/** Whether a run is open, through the worker's own Temporal client. */
async function isRunLive(workflowId: string): Promise<boolean> {
  try {
    const described = await Context.current().client.workflow.getHandle(workflowId).describe();
    return described.status.name === 'RUNNING';
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}

export function createPipelineActivities(deps: Pick<ActivityDeps, 'issueSource'>): PipelineActivities {
  return {
    resolvePipelineAgents: atEdge(async (input) => resolvePipelineAgents(input)),
    readIssueLabels: atEdge(async ({ repoPath, issueSource, issue }) => {
      const snapshot = await deps.issueSource(issueSource, repoPath).read(issue);
      return { labels: [...snapshot.labels], state: snapshot.state };
    }),
    applyPipelineLabels: atEdge(async ({ repoPath, issueSource, issue, add, remove }) =>
      deps.issueSource(issueSource, repoPath).relabel(issue, { add, remove }),
    ),
    postPipelineComment: atEdge(async ({ repoPath, issueSource, issue, text, idempotencyKey }) =>
      deps.issueSource(issueSource, repoPath).comment(issue, text, { idempotencyKey }),
    ),
    closePipelineIssue: atEdge(async ({ repoPath, issueSource, issue }) =>
      deps.issueSource(issueSource, repoPath).close(issue),
    ),
    handOverBranch: atEdge(async (input) => handOverBranch({ isRunLive }, input)),
  };
}
