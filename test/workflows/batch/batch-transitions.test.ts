/** The batch's named transitions, pure: queue, active rows, concurrency seen, cancel, carry. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialBatchState } from '../../../src/workflows/batch/state/batch-state.js';
import {
  cancelRequested,
  childEnded,
  childStarted,
  drainingStarted,
  issueActive,
  issueReleased,
  issuesSelected,
  queueCancelled,
  runningStarted,
  takeNextIssue,
} from '../../../src/workflows/batch/state/batch-transitions.js';
import type { BatchIssueResult } from '../../../src/contracts/batch.js';

const ref = (number: number) => ({ number, title: `#${number}`, state: 'open' as const, labels: [] });
const progress = (issue: number, state: 'starting' | 'running') => ({
  issue,
  title: '',
  state,
  workflowId: `w${issue}`,
});

test('the queue hands out issues in order; a fresh batch selects, then runs', () => {
  let s = issuesSelected(initialBatchState(undefined), [ref(1), ref(2)]);
  assert.equal(s.phase, 'selecting');
  s = runningStarted(s);
  assert.equal(s.phase, 'running');
  const first = takeNextIssue(s);
  assert.equal(first.next?.number, 1);
  const second = takeNextIssue(first.state);
  assert.equal(second.next?.number, 2);
  assert.deepEqual(takeNextIssue(second.state), { state: second.state });
  assert.equal(drainingStarted(s).phase, 'draining');
  assert.equal(drainingStarted({ ...s, phase: 'cancelling' }).phase, 'cancelling', 'draining never undoes a cancel');
});

test('an active issue keeps its place when its state changes; release removes it', () => {
  let s = issueActive(issueActive(initialBatchState(undefined), progress(1, 'starting')), progress(2, 'starting'));
  s = issueActive(s, progress(1, 'running'));
  assert.deepEqual(
    s.active.map((a) => [a.issue, a.state]),
    [
      [1, 'running'],
      [2, 'starting'],
    ],
  );
  assert.deepEqual(
    issueReleased(s, 1).active.map((a) => a.issue),
    [2],
  );
});

test('the concurrency seen is the most children in flight at once', () => {
  const s = childStarted(childEnded(childStarted(childStarted(initialBatchState(undefined)))));
  assert.equal(s.inFlight, 2);
  assert.equal(s.maxConcurrent, 2);
});

test('a cancel before running cancels; the queue becomes the given rows', () => {
  const s = cancelRequested(issuesSelected(initialBatchState(undefined), [ref(3)]), 'stop');
  assert.equal(runningStarted(s).phase, 'cancelling');
  const row = { issue: 3, outcome: 'cancelled' } as unknown as BatchIssueResult;
  const ended = queueCancelled(s, [row]);
  assert.deepEqual(ended.queue, []);
  assert.deepEqual(ended.results, [row]);
});

test('a continued batch starts running with what it carried', () => {
  const s = initialBatchState({ queue: [ref(4)], results: [], maxConcurrent: 3, generation: 2 });
  assert.equal(s.phase, 'running');
  assert.equal(s.maxConcurrent, 3);
  assert.equal(s.generation, 2);
  assert.equal(s.cancelled, undefined);
});
