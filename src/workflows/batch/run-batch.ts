/**
 * The batch workflow: the external orchestrator of seed 001 as a parent workflow.
 * Selects issues once (label, explicit list or query), then works them with at most
 * `concurrency` child runs at once — one `runAgentWorkflow` per issue under its usual
 * Workflow ID `<repo-id>/<agent>/issue-<n>` (as start-run; `<agent>-issue-<n>` for batches
 * started without a repoId), so `status|retry|cancel --issue N` keep working —
 * moving labels ready → in-progress → done | blocked as it goes. One issue's failure
 * never stops the others. Long batches drain and continue as new with queue and results.
 *
 * Decisions:
 * - How a child is started or attached to: batch-child.ts.
 * - Continue-as-new only with no child in flight (drain first): children's results
 *   cannot be awaited across runs, and the queue/results are all that must be carried.
 */
import {
  condition,
  continueAsNew,
  isCancellation,
  log,
  setCurrentDetails,
  setHandler,
  workflowInfo,
  allHandlersFinished,
} from '@temporalio/workflow';
import {
  DEFAULT_BATCH_HISTORY_THRESHOLD,
  batchLabels,
  type BatchInput,
  type BatchIssueProgress,
  type BatchIssueRef,
  type BatchIssueResult,
  type BatchPhase,
  type BatchProgress,
  type BatchResult,
} from '../../contracts/batch.js';
import { FailureType } from '../../contracts/failures.js';
import { failureInfo } from '../run/failure-info.js';
import { selectActivities } from './batch-proxies.js';
import { forwardCancel, moveIssueLabels, runIssueChild, type RunEnd } from './batch-child.js';
import { validateInput } from './batch-input.js';
import { checkCancelArgs } from '../run/message-validation.js';
import { batchProgressQuery, cancelBatchSignal } from './batch-messages.js';
import {
  batchResult,
  buildProgress,
  finalMove,
  renderBatchDetails,
  rowFromRun,
  rowWithoutRun,
  startMove,
  type LabelMove,
} from './batch-state.js';

export async function runBatchWorkflow(input: BatchInput): Promise<BatchResult> {
  validateInput(input);
  const { workflowId } = workflowInfo();
  const labels = batchLabels(input);
  const threshold = input.historyThreshold ?? DEFAULT_BATCH_HISTORY_THRESHOLD;
  const carry = input.carry;

  let phase: BatchPhase = carry ? 'running' : 'selecting';
  let queue: BatchIssueRef[] = carry ? [...carry.queue] : [];
  const results: BatchIssueResult[] = carry ? [...carry.results] : [];
  const active = new Map<number, BatchIssueProgress>();
  let maxConcurrent = carry?.maxConcurrent ?? 0;
  let inFlight = 0;
  let cancelled: string | undefined = carry?.cancelled;
  /** Bumped on every change the main loop waits for. */
  let version = 0;

  const progress = (): BatchProgress =>
    buildProgress({
      workflowId,
      phase,
      concurrency: input.concurrency,
      maxConcurrent,
      generation: carry?.generation ?? 0,
      queue,
      active: [...active.values()],
      results,
      childId,
    });
  const publish = (): void => {
    version += 1;
    setCurrentDetails(renderBatchDetails(progress()));
  };
  // Keyed by repository as start-run's runs (batches recorded before repoId keep their IDs).
  const childId = (issue: number): string =>
    input.repoId === undefined
      ? `${input.agentName}-issue-${issue}`
      : `${input.repoId}/${input.agentName}/issue-${issue}`;

  setHandler(batchProgressQuery, progress);
  setHandler(cancelBatchSignal, async (args: unknown) => {
    const checked = checkCancelArgs(args);
    if (!checked.ok) return log.warn('ignored a "cancel" signal with a bad payload', { reason: checked.reason });
    if (cancelled !== undefined) return;
    cancelled = checked.value.reason ?? 'the batch was cancelled by an operator';
    phase = 'cancelling';
    publish();
    const running = [...active.values()].filter((i) => i.state === 'running');
    await forwardCancel(running, `batch ${workflowId} cancelled: ${cancelled}`);
  });

  const moveLabels = (issue: number, move: LabelMove) => moveIssueLabels(input, issue, move);

  const setActive = (ref: BatchIssueRef, state: BatchIssueProgress['state']): void => {
    active.set(ref.number, { issue: ref.number, title: ref.title, state, workflowId: childId(ref.number) });
    publish();
  };

  async function processIssue(ref: BatchIssueRef): Promise<void> {
    const id = childId(ref.number);
    if (ref.state === 'closed') {
      results.push(rowWithoutRun(ref, id, 'skipped', 'the issue is closed'));
      return;
    }
    setActive(ref, 'starting');
    try {
      const started = await moveLabels(ref.number, startMove(labels));
      if (started.error !== undefined) {
        results.push(
          rowWithoutRun(ref, id, 'failed', `could not move the issue to ${labels.inProgress}: ${started.error}`, {
            code: FailureType.IssueInvalid,
          }),
        );
        return;
      }
      if (cancelled !== undefined) {
        const back = await moveLabels(ref.number, finalMove('cancelled', labels));
        results.push(
          rowWithoutRun(
            ref,
            id,
            'cancelled',
            `batch cancelled before the run started${back.error ? `; labels not restored: ${back.error}` : ''}`,
          ),
        );
        return;
      }
      inFlight += 1;
      maxConcurrent = Math.max(maxConcurrent, inFlight);
      let end: RunEnd & { attached: boolean };
      try {
        end = await runIssueChild(input, ref, id, () => setActive(ref, 'running'));
      } catch (err) {
        if (isCancellation(err)) throw err;
        end = {
          kind: 'error',
          outcome: 'failed',
          code: FailureType.Aborted,
          reason: `could not run ${id}: ${failureInfo(err).message}`,
          attached: false,
        };
      } finally {
        inFlight -= 1;
      }
      const row =
        end.kind === 'result'
          ? rowFromRun(ref, id, end.result, end.attached)
          : rowWithoutRun(ref, id, end.outcome, end.reason, {
              attached: end.attached,
              ...(end.code ? { code: end.code } : {}),
            });
      const moved = await moveLabels(ref.number, finalMove(row.outcome, labels));
      results.push(
        moved.error === undefined
          ? { ...row, ...(moved.labels ? { labels: moved.labels } : {}) }
          : { ...row, reason: `${row.reason}; labels not moved: ${moved.error}` },
      );
    } finally {
      active.delete(ref.number);
      publish();
    }
  }

  publish();
  if (carry === undefined) {
    const selected = await selectActivities.listIssues({
      repoPath: input.repoPath,
      issueSource: input.issueSource,
      selection: input.selection,
    });
    for (const m of selected.missing)
      results.push(
        rowWithoutRun({ number: m.issue, title: '' }, childId(m.issue), 'failed', m.reason, {
          code: FailureType.IssueNotFound,
        }),
      );
    queue = [...selected.issues];
    log.info('batch selected issues', { count: queue.length, missing: selected.missing.length });
  }
  phase = cancelled === undefined ? 'running' : 'cancelling';
  publish();

  const tasks = new Set<Promise<void>>();
  const historyFull = (): boolean => {
    const info = workflowInfo();
    return info.continueAsNewSuggested || info.historyLength >= threshold;
  };
  let draining = false;
  for (;;) {
    if (!draining && queue.length > 0 && historyFull()) {
      draining = true;
      if (phase === 'running') phase = 'draining';
      publish();
    }
    while (cancelled === undefined && !draining && queue.length > 0 && tasks.size < input.concurrency) {
      const ref = queue.shift()!;
      const task: Promise<void> = processIssue(ref).finally(() => {
        tasks.delete(task);
        version += 1;
      });
      tasks.add(task);
    }
    if (tasks.size === 0 && (queue.length === 0 || cancelled !== undefined || draining)) break;
    const seen = version;
    await condition(() => version !== seen);
  }

  if (cancelled !== undefined) {
    for (const ref of queue)
      results.push(
        rowWithoutRun(ref, childId(ref.number), 'cancelled', `batch cancelled before the run started: ${cancelled}`),
      );
    queue = [];
  } else if (queue.length > 0) {
    await condition(allHandlersFinished);
    log.info('batch continues as new', {
      remaining: queue.length,
      done: results.length,
      historyLength: workflowInfo().historyLength,
    });
    await continueAsNew<typeof runBatchWorkflow>({
      ...input,
      carry: { queue, results, maxConcurrent, generation: (carry?.generation ?? 0) + 1 },
    });
  }

  phase = 'completed';
  publish();
  await condition(allHandlersFinished);
  return batchResult({
    workflowId,
    cancelled: cancelled !== undefined,
    maxConcurrent,
    generation: carry?.generation ?? 0,
    results,
  });
}
