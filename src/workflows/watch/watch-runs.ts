/**
 * Starting the runs the watcher owes, and telling people: the issue's labels move from
 * the trigger label to the working one (so everyone sees it was taken), then the run
 * starts as an abandoned child under the issue's usual Workflow ID
 * `<repoId>/<agent>/issue-<n>` (so `status|retry|cancel --issue N` work on it and
 * stopping the watcher leaves it running). A live run already holding that ID (start-run,
 * or an earlier watcher) is adopted, never duplicated. A continuation gets its guidance
 * (review texts, the comment's words) in RunInput.guidance: the run's first model step
 * reads it as operator guidance, as it would a `retry` signal's prompt.
 */
import {
  ParentClosePolicy,
  WorkflowIdReusePolicy,
  getExternalWorkflowHandle,
  isCancellation,
  log,
  startChild,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { RunInput } from '../../contracts/run.js';
import { workingLabelOf, type PendingWork, type WatchedRun } from '../../contracts/watch.js';
import type { RunAgentWorkflow } from '../run/run-agent-signature.js';
import { failureInfo } from '../run/failure-info.js';
import { retrySignal } from '../run/messages.js';
import { RepoIdKey } from '../run/search-attributes.js';
import { watchActivities } from './watch-proxies.js';
import type { WatchSession } from './watch-session.js';

function runInput(session: WatchSession, work: PendingWork): RunInput {
  const input = session.input;
  return {
    issue: work.issue,
    ...(work.guidance.length > 0 ? { guidance: guidanceOf(work) } : {}),
    agentDir: input.agentDir,
    repoPath: input.repoPath,
    issueSource: input.issueSource,
    artifactsDir: input.artifactsDir,
    ...(input.delivery ? { delivery: input.delivery } : {}),
    ...(input.overrides ? { overrides: input.overrides } : {}),
    ...(input.repoInstructions ? { repoInstructions: input.repoInstructions } : {}),
    ...(input.maxIterations === undefined ? {} : { maxIterations: input.maxIterations }),
    ...(input.tuning ? { tuning: input.tuning } : {}),
    ...(input.budget ? { budget: input.budget } : {}),
    ...(input.answerTimeoutMs === undefined ? {} : { answerTimeoutMs: input.answerTimeoutMs }),
    ...(input.setup ? { setup: input.setup } : {}),
    ...(input.planApproval === undefined ? {} : { planApproval: input.planApproval }),
    progressComment: input.uiWorkflowsUrl === undefined ? {} : { uiWorkflowsUrl: input.uiWorkflowsUrl },
  };
}

/** Starts (or adopts) the run for one piece of owed work. */
export async function startOwedRun(session: WatchSession, work: PendingWork): Promise<void> {
  const { input } = session;
  const id = session.runId(work.issue);
  try {
    await watchActivities.pickUpIssue({
      repoPath: input.repoPath,
      issueSource: input.issueSource,
      issue: work.issue,
      add: [workingLabelOf(input.label)],
      remove: [input.label],
    });
  } catch (err) {
    if (isCancellation(err)) throw err;
    log.warn('could not pick up the issue; dropped', { issue: work.issue, error: failureInfo(err).message });
    session.drop(work);
    if (work.reply)
      await reply(session, work.reply, `could not pick up #${work.issue}: ${failureInfo(err).message}`, 'failed');
    return;
  }
  try {
    await startChild<RunAgentWorkflow>('runAgentWorkflow', {
      workflowId: id,
      args: [runInput(session, work)],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
      staticSummary: `Issue #${work.issue} (${work.kind} by the watcher)`,
      typedSearchAttributes: [{ key: RepoIdKey, value: input.repoId }],
    });
    log.info('started a run', { issue: work.issue, kind: work.kind, workflowId: id });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    log.info('adopted the live run of the issue', { issue: work.issue, workflowId: id });
    // A live run took no input from us: the guidance goes to it as a retry prompt.
    if (work.guidance.length > 0)
      await getExternalWorkflowHandle(id)
        .signal(retrySignal, { prompt: guidanceOf(work) })
        .catch((e: unknown) =>
          log.warn('could not pass the guidance', { workflowId: id, error: failureInfo(e).message }),
        );
  }
  session.started(work, id);
}

const guidanceOf = (work: PendingWork): string => work.guidance.join('\n\n---\n\n');

/** A run that ended: its working label goes, and the comment that asked for it gets the outcome. */
export async function runEnded(session: WatchSession, run: WatchedRun): Promise<void> {
  const { input } = session;
  await watchActivities
    .pickUpIssue({
      repoPath: input.repoPath,
      issueSource: input.issueSource,
      issue: run.issue,
      add: [],
      remove: [workingLabelOf(input.label)],
    })
    .catch((err: unknown) => log.warn('could not remove the working label', { error: failureInfo(err).message }));
  if (run.reply === undefined) return;
  const where = run.prUrl ?? (run.branch === undefined ? '' : ` on branch \`${run.branch}\``);
  await reply(
    session,
    run.reply,
    `run for #${run.issue} ended: **${run.outcome ?? 'failed'}** ${where}`.trim(),
    'outcome',
  );
}

export async function reply(
  session: WatchSession,
  to: { issue: number; commentId: number; author: string },
  text: string,
  /** One reply per comment and purpose (a retried activity finds it). */
  purpose: string,
): Promise<void> {
  await watchActivities
    .postWatchReply({
      repoPath: session.input.repoPath,
      issueSource: session.input.issueSource,
      issue: to.issue,
      author: to.author,
      text,
      key: `${to.commentId}-${purpose}`,
    })
    .catch((err: unknown) => log.warn('could not reply', { error: failureInfo(err).message }));
}
