/** The watcher's named transitions, pure: polls, owed work batched, runs started and checked. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialWatchState } from '../../../src/workflows/watch/state/watch-state.js';
import {
  owe,
  pollRecorded,
  runChecked,
  runStarted,
  stopRequested,
  workDropped,
} from '../../../src/workflows/watch/state/watch-transitions.js';
import { applyTriggers } from '../../../src/workflows/watch/state/watch-triggers.js';

const fresh = () => initialWatchState(undefined, '2024-01-01T00:00:00Z');

test('a poll moves the cursor, counts, and keeps only its own note', () => {
  const cursor = { since: '2024-01-02T00:00:00Z', seenCommentIds: [1] };
  const noted = pollRecorded(fresh(), cursor, 'rate limited');
  assert.deepEqual([noted.cursor, noted.polls, noted.note], [cursor, 1, 'rate limited']);
  const quiet = pollRecorded(noted, cursor, undefined);
  assert.deepEqual([quiet.polls, 'note' in quiet], [2, false]);
  assert.equal(stopRequested(quiet).stopping, true);
});

test('work owed to one issue is batched; a continuation wins over a start', () => {
  const s = owe(owe(fresh(), 5, 'start', 'first', undefined), 5, 'continue', ' second ', undefined);
  assert.deepEqual(s.pending, [{ issue: 5, kind: 'continue', guidance: ['first', 'second'] }]);
  assert.deepEqual(workDropped(s, s.pending[0]!).pending, []);
});

test('a started run is running; a check that finds it closed hands it out ended, with its pull', () => {
  const owed = owe(fresh(), 5, 'start', undefined, undefined);
  const started = runStarted(owed, owed.pending[0]!, 'r/a/issue-5');
  assert.deepEqual(started.pending, []);
  assert.equal(started.runs[0]?.state, 'running');
  const still = runChecked(started, { workflowId: 'r/a/issue-5', status: 'running' });
  assert.equal(still.ended, undefined);
  const { state, ended } = runChecked(started, {
    workflowId: 'r/a/issue-5',
    status: 'closed',
    outcome: 'success',
    prUrl: 'https://x/o/r/pull/12',
  });
  assert.deepEqual([ended?.state, ended?.pull], ['ended', 12]);
  assert.equal(state.runs[0]?.state, 'ended');
});

test('triggers fold in order: each sees what the ones before changed', () => {
  const rules = { ciRounds: 1, mention: '@agent' };
  const reply = { issue: 5, commentId: 9, author: 'a' };
  const { state, actions } = applyTriggers(
    fresh(),
    [
      { kind: 'label', issue: 5, title: '' },
      { kind: 'command', issue: 5, command: 'cancel', text: '', reply },
    ],
    rules,
  );
  assert.deepEqual(state.pending, [], 'the cancel forgot the work the label owed');
  assert.deepEqual(actions, [{ kind: 'reply', reply, text: 'no live run for #5: nothing to cancel' }]);
});
