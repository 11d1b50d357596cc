/**
 * The batch workflow: the external orchestrator of seed 001 as a parent workflow.
 * Selects issues once (label, explicit list or query), then works them with at most
 * `concurrency` child runs at once — one `runAgentWorkflow` per issue under its usual
 * Workflow ID `<agent>-issue-<n>`, so `status|retry|cancel --issue N` keep working —
 * moving labels ready → in-progress → done | blocked as it goes. One issue's failure
 * never stops the others. Long batches drain and continue as new, carrying the queue
 * and the result table.
 *
 * Decisions:
 * - parentClosePolicy ABANDON: a child is a full, independently resumable run that
 *   operators manage by its own Workflow ID; terminating or resetting the batch must not
 *   destroy agent work in progress (worktrees, spend). A graceful stop is the batch's
 *   `cancel` signal, which forwards `cancel` to the running children.
 * - An issue whose `<agent>-issue-<n>` is already running (started by start-run, or
 *   abandoned by an earlier batch) is attached to, never duplicated: starting the child
 *   fails with WorkflowExecutionAlreadyStarted and an activity waits for that run.
 *   Closed runs of the same ID do not block (ALLOW_DUPLICATE): the selection (open,
 *   labelled ready) is what decides that an issue needs work.
 * - Continue-as-new only with no child in flight (drain first): children's results
 *   cannot be awaited across runs, and the queue/results are all that must be carried.
 */
import {
  ApplicationFailure,
  ChildWorkflowFailure,
  CancelledFailure,
  ParentClosePolicy,
  TerminatedFailure,
  TimeoutFailure,
  WorkflowIdReusePolicy,
  condition,
  continueAsNew,
  getExternalWorkflowHandle,
  isCancellation,
  log,
  setCurrentDetails,
  setHandler,
  startChild,
  workflowInfo,
  allHandlersFinished,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import {
  DEFAULT_BATCH_HISTORY_THRESHOLD,
  MAX_BATCH_CONCURRENCY,
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
import type { RunInput, RunResult } from '../../contracts/run.js';
import type { runAgentWorkflow } from '../run-agent.js';
import { failureInfo } from '../run/failure-info.js';
import { cancelSignal } from '../run/messages.js';
import { awaitActivities, labelActivities, selectActivities } from './batch-proxies.js';
import { batchProgressQuery, cancelBatchSignal } from './batch-messages.js';
import {
  countsOf,
  finalMove,
  renderBatchDetails,
  rowFromRun,
  rowWithoutRun,
  startMove,
  type LabelMove,
} from './batch-state.js';

function validateInput(input: BatchInput): void {
  const problems: string[] = [];
  if (!Number.isInteger(input.concurrency) || input.concurrency < 1 || input.concurrency > MAX_BATCH_CONCURRENCY) {
    problems.push(
      `concurrency must be an integer from 1 to ${MAX_BATCH_CONCURRENCY}, got ${JSON.stringify(input.concurrency)}`,
    );
  }
  if (typeof input.agentName !== 'string' || input.agentName.trim() === '')
    problems.push('agentName must be a non-empty string');
  if (input.selection.kind === 'label' && input.selection.label.trim() === '')
    problems.push('selection.label must be non-empty');
  if (input.selection.kind === 'issues' && !input.selection.issues.every((n) => Number.isSafeInteger(n) && n > 0))
    problems.push('selection.issues must be positive integers');
  if (input.historyThreshold !== undefined && (!Number.isInteger(input.historyThreshold) || input.historyThreshold < 1))
    problems.push('historyThreshold must be a positive integer');
  if (problems.length > 0)
    throw ApplicationFailure.nonRetryable(`invalid batch input: ${problems.join('; ')}`, FailureType.ConfigInvalid);
}

type RunEnd =
  | { kind: 'result'; result: RunResult }
  | { kind: 'error'; outcome: 'failed' | 'cancelled'; code?: string; reason: string };

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

  const progress = (): BatchProgress => {
    const issues = [
      ...results.map((r): BatchIssueProgress => ({
        issue: r.issue,
        title: r.title,
        state: r.outcome,
        workflowId: r.workflowId,
        reason: r.reason,
      })),
      ...[...active.values()],
      ...queue.map((q): BatchIssueProgress => ({
        issue: q.number,
        title: q.title,
        state: 'queued',
        workflowId: childId(q.number),
      })),
    ];
    return {
      workflowId,
      phase,
      concurrency: input.concurrency,
      counts: countsOf(queue.length, [...active.values()], results),
      maxConcurrent,
      generation: carry?.generation ?? 0,
      issues,
      results,
    };
  };
  const publish = (): void => {
    version += 1;
    setCurrentDetails(renderBatchDetails(progress()));
  };
  const childId = (issue: number): string => `${input.agentName}-issue-${issue}`;

  setHandler(batchProgressQuery, progress);
  setHandler(cancelBatchSignal, async (args) => {
    if (cancelled !== undefined) return;
    cancelled = args?.reason ?? 'the batch was cancelled by an operator';
    phase = 'cancelling';
    publish();
    for (const a of [...active.values()].filter((i) => i.state === 'running')) {
      await getExternalWorkflowHandle(a.workflowId)
        .signal(cancelSignal, { reason: `batch ${workflowId} cancelled: ${cancelled}` })
        .catch((err: unknown) =>
          log.warn('could not forward cancel', { workflowId: a.workflowId, error: failureInfo(err).message }),
        );
    }
  });

  async function moveLabels(issue: number, move: LabelMove): Promise<{ labels?: readonly string[]; error?: string }> {
    try {
      const after = await labelActivities.relabelIssue({
        repoPath: input.repoPath,
        issueSource: input.issueSource,
        issue,
        add: move.add,
        remove: move.remove,
      });
      return { labels: after };
    } catch (err) {
      if (isCancellation(err)) throw err;
      return { error: failureInfo(err).message };
    }
  }

  const setActive = (ref: BatchIssueRef, state: BatchIssueProgress['state']): void => {
    active.set(ref.number, { issue: ref.number, title: ref.title, state, workflowId: childId(ref.number) });
    publish();
  };

  async function runChild(ref: BatchIssueRef): Promise<RunEnd & { attached: boolean }> {
    const id = childId(ref.number);
    const runInput: RunInput = {
      issue: ref.number,
      agentDir: input.agentDir,
      repoPath: input.repoPath,
      issueSource: input.issueSource,
      ...(input.delivery ? { delivery: input.delivery } : {}),
      artifactsDir: input.artifactsDir,
      ...(input.budget ? { budget: input.budget } : {}),
      ...(input.maxIterations === undefined ? {} : { maxIterations: input.maxIterations }),
      ...(input.tuning ? { tuning: input.tuning } : {}),
    };
    try {
      const child = await startChild<typeof runAgentWorkflow>('runAgentWorkflow', {
        workflowId: id,
        args: [runInput],
        parentClosePolicy: ParentClosePolicy.ABANDON,
        workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
        staticSummary: `Issue #${ref.number}: ${ref.title}`.slice(0, 200),
      });
      setActive(ref, 'running');
      return { kind: 'result', result: await child.result(), attached: false };
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError) {
        log.info('attaching to the live run of the issue', { workflowId: id });
        setActive(ref, 'running');
        const out = await awaitActivities.awaitRun.executeWithOptions({ summary: `attach · ${id}` }, [
          { workflowId: id },
        ]);
        if (out.status === 'completed' && out.result) return { kind: 'result', result: out.result, attached: true };
        const outcome = out.status === 'cancelled' ? 'cancelled' : 'failed';
        return {
          kind: 'error',
          outcome,
          code: FailureType.Aborted,
          reason: `the live run ${id} ended ${out.status}: ${out.reason ?? ''}`.trim(),
          attached: true,
        };
      }
      if (err instanceof ChildWorkflowFailure) {
        const cause = err.cause;
        if (cause instanceof CancelledFailure)
          return { kind: 'error', outcome: 'cancelled', reason: `run ${id} was cancelled`, attached: false };
        const how =
          cause instanceof TerminatedFailure ? 'terminated' : cause instanceof TimeoutFailure ? 'timed out' : 'failed';
        const info = failureInfo(cause);
        return {
          kind: 'error',
          outcome: 'failed',
          code: info.type ?? FailureType.Aborted,
          reason: `run ${id} ${how}: ${info.message}`,
          attached: false,
        };
      }
      throw err;
    }
  }

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
        end = await runChild(ref);
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
  const sorted = [...results].sort((a, b) => a.issue - b.issue);
  const counts = countsOf(0, [], sorted);
  const status =
    cancelled !== undefined
      ? 'cancelled'
      : sorted.every((r) => r.outcome === 'succeeded' || r.outcome === 'skipped')
        ? 'completed'
        : 'partial';
  return {
    workflowId,
    status,
    counts,
    maxConcurrent,
    generation: carry?.generation ?? 0,
    results: sorted,
    totalTokens: sorted.reduce((s, r) => s + r.tokens, 0),
    totalCostUsd: sorted.reduce((s, r) => s + r.costUsd, 0),
  };
}
