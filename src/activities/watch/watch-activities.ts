/**
 * createWatchActivities(deps): the watch workflow's I/O. Polling and comment replies go
 * through the GitHub watch port (or the local store); how runs stand and a run's
 * progress for `@issue-agent status` come from Temporal through the activity's own
 * client, so the watcher keeps no handle it could lose on a restart or continue-as-new.
 */
import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { RunProgress, RunResult } from '../../contracts/run.js';
import type { ReplyInput, RunCheck, WatchActivities } from '../../contracts/watch.js';
import { resultOfFailure } from '../batch/result-of-failure.js';
import { atEdge } from '../edge/to-failure.js';
import type { IssueSourceFactory } from '../issues/issue-source.js';
import type { LocalIssueStore } from '../issues/local-issue-store.js';
import { fill, oneLine, readTemplate } from './comment-templates.js';
import { pollWatch } from './poll-watch.js';
import { redactPoll } from './redact-triggers.js';
import type { WatchConnector } from './watch-connector.js';

export interface WatchDeps {
  readonly github: WatchConnector;
  readonly issueSource: IssueSourceFactory;
  readonly local: (repoPath: string) => LocalIssueStore;
  readonly redact: (text: string) => string;
  readonly templatesDir?: string;
}

const replyMarker = (key: string): string => `<!-- issue-agent:reply ${key} -->`;

export function createWatchActivities(deps: WatchDeps): WatchActivities {
  async function reply(input: Omit<ReplyInput, 'author' | 'text'>, author: string, body: string): Promise<void> {
    const template = await readTemplate('reply', deps.templatesDir);
    // A reply to no one (a check run, not a comment) is the text alone.
    const text = deps.redact(author === '' ? body : fill(template, { author, text: body }).trim());
    if (input.issueSource === 'local') {
      await deps.local(input.repoPath).upsertComment(input.issue, `reply ${input.key}`, text);
      return;
    }
    const port = await deps.github(input.repoPath);
    const marker = replyMarker(input.key);
    if ((await port.findComment(input.issue, marker)) !== undefined) return;
    await port.createComment(input.issue, `${text}\n\n${marker}`);
  }

  return {
    pollWatch: atEdge(async (input) =>
      redactPoll(
        await pollWatch(
          { github: deps.github, issues: (repoPath) => deps.issueSource(input.issueSource, repoPath) },
          input,
        ),
        deps.redact,
      ),
    ),

    checkRuns: atEdge(async ({ workflowIds }) => {
      const client = Context.current().client;
      const checks: RunCheck[] = [];
      for (const workflowId of workflowIds) {
        const handle = client.workflow.getHandle(workflowId);
        let status: string;
        try {
          status = (await handle.describe()).status.name;
        } catch (err) {
          if (err instanceof WorkflowNotFoundError) {
            checks.push({ workflowId, status: 'missing' });
            continue;
          }
          throw err;
        }
        if (status === 'RUNNING') {
          checks.push({ workflowId, status: 'running' });
          continue;
        }
        let result: RunResult | undefined;
        try {
          result = (await handle.result()) as RunResult;
        } catch (err) {
          result = await resultOfFailure(handle, err);
        }
        checks.push({
          workflowId,
          status: 'closed',
          ...(result === undefined
            ? { outcome: status === 'CANCELED' ? 'cancelled' : 'failed', reason: `the run ended ${status}` }
            : { outcome: result.outcome, reason: result.reason }),
          ...(result?.boundary?.prUrl === undefined ? {} : { prUrl: result.boundary.prUrl }),
          ...(result?.branch === undefined ? {} : { branch: result.branch }),
        });
      }
      return checks;
    }),

    pickUpIssue: atEdge(async ({ repoPath, issueSource, issue, add, remove }) =>
      deps.issueSource(issueSource, repoPath).relabel(issue, { add, remove }),
    ),

    postWatchReply: atEdge(async (input) => reply(input, input.author, input.text)),

    replyRunStatus: atEdge(async (input) => {
      const handle = Context.current().client.workflow.getHandle(input.workflowId);
      let text: string;
      try {
        const p = (await handle.query('progress')) as RunProgress;
        text = `status of ${input.workflowId}: ${p.phase}, step \`${p.stepId}\`, iteration ${p.iteration}/${p.maxIterations}, ${p.tokensTotal} tokens, $${p.costUsd.toFixed(4)}${p.lastError ? ` · last: ${oneLine(p.lastError, 200)}` : ''}`;
      } catch (err) {
        text = `no status for ${input.workflowId}: ${oneLine(err instanceof Error ? err.message : String(err), 200)}`;
      }
      await reply(input, input.author, text);
    }),
  };
}
