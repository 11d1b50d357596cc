/**
 * The watch workflow: one per repository (Workflow ID `<repoId>/watch`), a durable loop
 * that polls the repository, starts one run per triggered issue (at most `concurrency`
 * at once), passes comment commands to the runs, continues delivered runs on review,
 * relays the comments of allowed authors on an issue to its live run (an answer to a
 * question the run asked; ignored by a run that asked none), and answers the comments that asked. It continues as new every `pollsPerRun` polls
 * (or when Temporal suggests it) carrying its small state (watch-session.ts, watch/state/).
 *
 * Each cycle: see which of its runs ended (an activity asks Temporal, so nothing is lost
 * across restarts), poll, act on commands, start what may start, then sleep the poll
 * interval, or longer when GitHub's rate limit asks. `stop` (or a Temporal cancel) ends
 * the loop; the runs it started are abandoned children and keep going.
 */
import {
  CancellationScope,
  allHandlersFinished,
  condition,
  continueAsNew,
  getExternalWorkflowHandle,
  isCancellation,
  log,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { WatchInput, WatchProgress } from '../../contracts/watch.js';
import { failureInfo } from '../run/failure-info.js';
import { answerSignal, cancelSignal, extendBudgetSignal, retrySignal } from '../run/messages.js';
import { MAX_ANSWER_CHARS } from '../../contracts/human-loop.js';
import { stopWatchSignal, watchProgressQuery } from './watch-messages.js';
import { watchActivities } from './watch-proxies.js';
import { WatchSession, type WatchAction } from './watch-session.js';
import { reply, runEnded, startOwedRun } from './watch-runs.js';

const DEFAULT_POLLS_PER_RUN = 200;

async function act(session: WatchSession, action: WatchAction): Promise<void> {
  const signalled = (what: string) => (err: unknown) =>
    log.warn(`could not send ${what}`, { error: failureInfo(err).message });
  switch (action.kind) {
    case 'cancel':
      await getExternalWorkflowHandle(action.run.workflowId)
        .signal(cancelSignal, { reason: `cancelled by @${action.reply.author} in a comment` })
        .catch(signalled('cancel'));
      return reply(session, action.reply, `cancel sent to the run of #${action.run.issue}`, 'cancel');
    case 'retry':
      await getExternalWorkflowHandle(action.run.workflowId)
        .signal(retrySignal, action.text === '' ? {} : { prompt: action.text })
        .catch(signalled('retry'));
      return reply(session, action.reply, `retry sent to the run of #${action.run.issue}`, 'retry');
    case 'status':
      return watchActivities
        .replyRunStatus({
          repoPath: session.input.repoPath,
          issueSource: session.input.issueSource,
          issue: action.reply.issue,
          author: action.reply.author,
          key: `${action.reply.commentId}-status`,
          workflowId: action.run.workflowId,
        })
        .catch(signalled('status'));
    case 'reply':
      return reply(session, action.reply, action.text, 'note');
    case 'extend':
      await getExternalWorkflowHandle(action.run.workflowId)
        .signal(extendBudgetSignal, { maxUsd: action.usd })
        .catch(signalled('extendBudget'));
      return reply(
        session,
        action.reply,
        `budget of the run of #${action.run.issue} raised by $${action.usd}`,
        'extend',
      );
    case 'answer':
      // The first answer ends the run's wait; a run that asked nothing ignores it.
      await getExternalWorkflowHandle(action.run.workflowId)
        .signal(answerSignal, { author: action.reply.author, text: action.text.slice(0, MAX_ANSWER_CHARS) })
        .catch(signalled('answer'));
      return;
  }
}

async function cycle(session: WatchSession): Promise<number | undefined> {
  const { input } = session;
  const running = session.running;
  if (running.length > 0) {
    const checks = await watchActivities.checkRuns({ workflowIds: running.map((r) => r.workflowId) });
    for (const check of checks) {
      const ended = session.checked(check);
      if (ended) await runEnded(session, ended);
    }
  }
  const polled = await watchActivities.pollWatch({
    repoPath: input.repoPath,
    issueSource: input.issueSource,
    label: input.label,
    mention: input.mention,
    cursor: session.cursor,
    pulls: session.pulls(),
  });
  for (const action of session.polled(polled)) await act(session, action);
  for (const work of session.startable()) await startOwedRun(session, work);
  return polled.waitMs;
}

export async function runWatchWorkflow(input: WatchInput): Promise<WatchProgress> {
  const info = workflowInfo();
  const session = new WatchSession(input, info.workflowId, new Date(Date.now()).toISOString());
  setHandler(watchProgressQuery, () => session.progress());
  setHandler(stopWatchSignal, () => session.stop());
  const pollsPerRun = input.pollsPerRun ?? DEFAULT_POLLS_PER_RUN;
  const startPolls = session.polls;
  try {
    while (!session.stopping) {
      const waitMs = await cycle(session);
      if (session.stopping) break;
      if (session.polls - startPolls >= pollsPerRun || workflowInfo().continueAsNewSuggested) {
        await condition(allHandlersFinished);
        log.info('watcher continues as new', { polls: session.polls });
        await continueAsNew<typeof runWatchWorkflow>({ ...input, carry: session.carry() });
      }
      await condition(() => session.stopping, Math.max(input.pollIntervalMs, waitMs ?? 0));
    }
  } catch (err) {
    if (!isCancellation(err)) throw err;
    // Cancelled through Temporal: stop like `stop`; the runs are left alone.
    await CancellationScope.nonCancellable(async () => log.info('watcher cancelled; its runs keep going'));
    session.stop();
  }
  log.info('watcher stopped', { polls: session.polls, running: session.running.length });
  return session.progress();
}
