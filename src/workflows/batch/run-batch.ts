/**
 * The batch workflow: the orchestrator over many issues as a parent workflow
 * (docs/concepts.md#batch).
 * Selects issues once (label, explicit list or query), then works them with at most
 * `concurrency` child runs at once — one `runAgentWorkflow` per issue under its usual
 * Workflow ID `<repo-id>/<agent>/issue-<n>` (as start-run; `<agent>-issue-<n>` for batches
 * started without a repoId), so `status|retry|cancel --issue N` keep working —
 * moving labels ready → in-progress → done | blocked as it goes. One issue's failure
 * never stops the others. Long batches drain and continue as new with queue and results.
 *
 * Decisions:
 * - The state and its changes: batch-session.ts; one issue start to row: work-issue.ts.
 * - How a child is started or attached to: batch-child.ts.
 * - Continue-as-new only with no child in flight (drain first): children's results
 *   cannot be awaited across runs, and the queue/results are all that must be carried.
 */
import { allHandlersFinished, condition, continueAsNew, log, setHandler, workflowInfo } from '@temporalio/workflow';
import { DEFAULT_BATCH_HISTORY_THRESHOLD, type BatchInput, type BatchResult } from '../../contracts/batch.js';
import { FailureType } from '../../contracts/failures.js';
import { checkCancelArgs } from '../run/message-checks.js';
import { forwardCancel } from './batch-child.js';
import { validateInput } from './batch-input.js';
import { batchProgressQuery, cancelBatchSignal } from './batch-messages.js';
import { selectActivities } from './batch-proxies.js';
import { BatchSession } from './batch-session.js';
import { rowWithoutRun } from './batch-report.js';
import { workIssue } from './work-issue.js';

/** A fresh batch selects its issues once; the missing ones are failed rows at once. */
async function selectIssues(session: BatchSession): Promise<void> {
  const { input } = session;
  const selected = await selectActivities.listIssues({
    repoPath: input.repoPath,
    issueSource: input.issueSource,
    selection: input.selection,
  });
  for (const m of selected.missing)
    session.record(
      rowWithoutRun({ number: m.issue, title: '' }, session.childId(m.issue), 'failed', m.reason, {
        code: FailureType.IssueNotFound,
      }),
    );
  session.select(selected.issues);
  log.info('batch selected issues', { count: session.queued, missing: selected.missing.length });
}

/**
 * At most `concurrency` issues at once until the queue is empty, the batch is cancelled,
 * or the history is full (then it drains: the children in flight end, none starts).
 */
async function workQueue(session: BatchSession, threshold: number): Promise<void> {
  const tasks = new Set<Promise<void>>();
  const historyFull = (): boolean => {
    const info = workflowInfo();
    return info.continueAsNewSuggested || info.historyLength >= threshold;
  };
  let draining = false;
  for (;;) {
    if (!draining && session.queued > 0 && historyFull()) {
      draining = true;
      session.startDraining();
    }
    while (
      session.cancelled === undefined &&
      !draining &&
      session.queued > 0 &&
      tasks.size < session.input.concurrency
    ) {
      const ref = session.takeNext()!;
      const task: Promise<void> = workIssue(session, ref).finally(() => {
        tasks.delete(task);
        session.wake();
      });
      tasks.add(task);
    }
    if (tasks.size === 0 && (session.queued === 0 || session.cancelled !== undefined || draining)) break;
    const seen = session.version;
    await condition(() => session.version !== seen);
  }
}

export async function runBatchWorkflow(input: BatchInput): Promise<BatchResult> {
  validateInput(input);
  const session = new BatchSession(input, workflowInfo().workflowId);
  const threshold = input.historyThreshold ?? DEFAULT_BATCH_HISTORY_THRESHOLD;

  setHandler(batchProgressQuery, () => session.progress());
  setHandler(cancelBatchSignal, async (args: unknown) => {
    const checked = checkCancelArgs(args);
    if (!checked.ok) return log.warn('ignored a "cancel" signal with a bad payload', { reason: checked.reason });
    if (!session.cancel(checked.value.reason ?? 'the batch was cancelled by an operator')) return;
    const running = session.active.filter((i) => i.state === 'running');
    await forwardCancel(running, `batch ${session.workflowId} cancelled: ${session.cancelled}`);
  });

  session.publish();
  if (input.carry === undefined) await selectIssues(session);
  session.startRunning();
  await workQueue(session, threshold);

  const cancelled = session.cancelled;
  if (cancelled !== undefined) {
    session.cancelQueued((ref) =>
      rowWithoutRun(
        ref,
        session.childId(ref.number),
        'cancelled',
        `batch cancelled before the run started: ${cancelled}`,
      ),
    );
  } else if (session.queued > 0) {
    await condition(allHandlersFinished);
    log.info('batch continues as new', {
      remaining: session.queued,
      done: session.done,
      historyLength: workflowInfo().historyLength,
    });
    await continueAsNew<typeof runBatchWorkflow>({ ...input, carry: session.carry() });
  }

  session.complete();
  await condition(allHandlersFinished);
  return session.result();
}
