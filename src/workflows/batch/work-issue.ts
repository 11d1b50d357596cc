/**
 * One issue of a batch, start to row: a closed issue is skipped; otherwise its labels
 * move to in-progress, its child run is started (or attached to) and awaited, and its
 * labels move to done | blocked | ready by the row's outcome. Every end, including a
 * failure to start, is one result row; one issue's failure never stops the others.
 */
import { isCancellation } from '@temporalio/workflow';
import { batchLabels, type BatchIssueRef } from '../../contracts/batch.js';
import { FailureType } from '../../contracts/failures.js';
import { failureInfo } from '../run/failure-info.js';
import { moveIssueLabels, runIssueChild, type RunEnd } from './batch-child.js';
import type { BatchSession } from './batch-session.js';
import { rowFromRun, rowWithoutRun } from './batch-report.js';
import { finalMove, startMove } from './label-moves.js';

export async function workIssue(session: BatchSession, ref: BatchIssueRef): Promise<void> {
  const { input } = session;
  const labels = batchLabels(input);
  const id = session.childId(ref.number);
  if (ref.state === 'closed') {
    session.record(rowWithoutRun(ref, id, 'skipped', 'the issue is closed'));
    return;
  }
  session.setActive(ref, 'starting');
  try {
    const started = await moveIssueLabels(input, ref.number, startMove(labels));
    if (started.error !== undefined) {
      session.record(
        rowWithoutRun(ref, id, 'failed', `could not move the issue to ${labels.inProgress}: ${started.error}`, {
          code: FailureType.IssueInvalid,
        }),
      );
      return;
    }
    if (session.cancelled !== undefined) {
      const back = await moveIssueLabels(input, ref.number, finalMove('cancelled', labels));
      session.record(
        rowWithoutRun(
          ref,
          id,
          'cancelled',
          `batch cancelled before the run started${back.error ? `; labels not restored: ${back.error}` : ''}`,
        ),
      );
      return;
    }
    session.childStarted();
    let end: RunEnd & { attached: boolean };
    try {
      end = await runIssueChild(input, ref, id, () => session.setActive(ref, 'running'));
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
      session.childEnded();
    }
    const row =
      end.kind === 'result'
        ? rowFromRun(ref, id, end.result, end.attached)
        : rowWithoutRun(ref, id, end.outcome, end.reason, {
            attached: end.attached,
            ...(end.code ? { code: end.code } : {}),
          });
    const moved = await moveIssueLabels(input, ref.number, finalMove(row.outcome, labels));
    session.record(
      moved.error === undefined
        ? { ...row, ...(moved.labels ? { labels: moved.labels } : {}) }
        : { ...row, reason: `${row.reason}; labels not moved: ${moved.error}` },
    );
  } finally {
    session.release(ref.number);
  }
}
