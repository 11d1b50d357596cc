/**
 * createBatchActivities(deps): the batch workflow's I/O: select issues through the
 * IssueSource port, move their labels (idempotent set changes), and wait for a run the
 * batch found already live instead of starting a duplicate.
 */
import { resultOfFailure } from './result-of-failure.js';
import { Context } from '@temporalio/activity';
import { WorkflowFailedError } from '@temporalio/client';
import { CancelledFailure, TerminatedFailure, TimeoutFailure } from '@temporalio/common';
import type { IssueSnapshot } from '../../contracts/activities.js';
import type { AwaitRunOutput, BatchActivities, BatchIssueRef, ListIssuesOutput } from '../../contracts/batch.js';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import type { RunResult } from '../../contracts/run.js';
import type { ActivityDeps } from '../deps.js';
import { withHeartbeat } from '../edge/heartbeat.js';
import { atEdge } from '../edge/to-failure.js';

const ref = (s: IssueSnapshot): BatchIssueRef => ({
  number: s.number,
  title: s.title,
  state: s.state,
  labels: [...s.labels],
});

export function createBatchActivities(deps: Pick<ActivityDeps, 'issueSource'>): BatchActivities {
  return {
    listIssues: atEdge(async ({ repoPath, issueSource, selection }): Promise<ListIssuesOutput> => {
      const source = deps.issueSource(issueSource, repoPath);
      switch (selection.kind) {
        case 'label':
          return { issues: (await source.list({ label: selection.label, state: 'open' })).map(ref), missing: [] };
        case 'query': {
          const needle = selection.titleContains?.toLowerCase();
          const found = await source.list({
            ...(selection.label === undefined ? {} : { label: selection.label }),
            state: selection.state ?? 'open',
          });
          return {
            issues: found.filter((s) => needle === undefined || s.title.toLowerCase().includes(needle)).map(ref),
            missing: [],
          };
        }
        case 'issues': {
          const issues: BatchIssueRef[] = [];
          const missing: { issue: number; reason: string }[] = [];
          for (const n of [...new Set(selection.issues)]) {
            try {
              issues.push(ref(await source.read(n)));
            } catch (err) {
              if (AgentError.isInstance(err) && err.code === FailureType.IssueNotFound)
                missing.push({ issue: n, reason: err.describe() });
              else throw err;
            }
          }
          return { issues, missing };
        }
      }
    }),

    relabelIssue: atEdge(async ({ repoPath, issueSource, issue, add, remove }) =>
      deps.issueSource(issueSource, repoPath).relabel(issue, { add, remove }),
    ),

    awaitRun: atEdge(async ({ workflowId }): Promise<AwaitRunOutput> =>
      withHeartbeat(async (hb) => {
        const handle = Context.current().client.workflow.getHandle(workflowId);
        const aborted = new Promise<never>((_, reject) => {
          if (hb.signal.aborted) reject(hb.signal.reason);
          hb.signal.addEventListener('abort', () => reject(hb.signal.reason), { once: true });
        });
        try {
          const result = (await Promise.race([handle.result(), aborted])) as RunResult;
          return { status: 'completed', result };
        } catch (err) {
          if (!(err instanceof WorkflowFailedError)) throw err;
          // A failed or cancelled run carries its result (contracts/run-end.ts): the row shows it.
          const ended = await resultOfFailure(handle, err);
          if (ended) return { status: 'completed', result: ended };
          const cause = err.cause;
          const status: AwaitRunOutput['status'] =
            cause instanceof CancelledFailure
              ? 'cancelled'
              : cause instanceof TerminatedFailure
                ? 'terminated'
                : cause instanceof TimeoutFailure
                  ? 'timed-out'
                  : 'failed';
          return { status, reason: cause?.message ?? err.message };
        }
      }),
    ),
  };
}
