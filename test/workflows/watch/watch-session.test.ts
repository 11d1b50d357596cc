/**
 * The watcher's decisions, pure: at most `concurrency` runs, never a second live run for
 * an issue, two review comments in a row batched into one continuation, comments on a
 * delivered PR mapped to its issue, a PR the watcher did not deliver ignored, commands
 * turned into actions only for live runs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WatchSession } from '../../../src/workflows/watch/watch-session.js';
import type { WatchInput } from '../../../src/contracts/watch.js';

const input: WatchInput = {
  agentName: 'a',
  agentDir: '/a',
  repoPath: '/r',
  issueSource: 'github',
  repoId: 'r-1',
  artifactsDir: '/x',
  label: 'agent',
  mention: '@issue-agent',
  concurrency: 2,
  pollIntervalMs: 1000,
};
const reply = (commentId: number) => ({ issue: 9, commentId, author: 'alice' });

test('concurrency and one live run per issue', () => {
  const s = new WatchSession(input, 'r-1/watch', '2024-01-01T00:00:00Z');
  s.triggered([1, 2, 3].map((issue) => ({ kind: 'label' as const, issue, title: '' })));
  const first = s.startable();
  assert.deepEqual(
    first.map((w) => w.issue),
    [1, 2],
  );
  for (const w of first) s.started(w, s.runId(w.issue));
  assert.deepEqual(s.startable(), [], 'two running: the third waits');
  s.triggered([{ kind: 'label', issue: 1, title: '' }]);
  assert.deepEqual(s.progress().pending, [3], 'a live issue is not owed a second run');
  s.checked({ workflowId: s.runId(1), status: 'closed', outcome: 'success', prUrl: 'https://x/acme/w/pull/9' });
  assert.deepEqual(
    s.startable().map((w) => w.issue),
    [3],
  );
});

test('reviews and PR comments: mapped to the issue and batched into one continuation', () => {
  const s = new WatchSession(input, 'r-1/watch', '2024-01-01T00:00:00Z');
  s.triggered([{ kind: 'label', issue: 1, title: '' }]);
  s.started(s.startable()[0]!, s.runId(1));
  s.checked({ workflowId: s.runId(1), status: 'closed', outcome: 'success', prUrl: 'https://x/acme/w/pull/9' });
  assert.deepEqual(s.pulls(), [{ pull: 9, issue: 1, seen: [], ci: { rounds: 0, handled: [], reran: [] } }]);
  s.triggered([
    { kind: 'review', issue: 1, reviewId: 70, text: 'rename it' },
    { kind: 'mention', issue: 9, text: 'and add a test', reply: reply(71), onPull: true },
    { kind: 'mention', issue: 12, text: 'not ours', reply: reply(72), onPull: true },
  ]);
  const owed = s.startable();
  assert.equal(owed.length, 1, JSON.stringify(owed));
  assert.deepEqual(owed[0], {
    issue: 1,
    kind: 'continue',
    guidance: ['rename it', 'and add a test'],
    reply: reply(71),
  });
  assert.deepEqual(s.pulls()[0]!.seen, [70], 'the review is not read twice');
});

test('commands act on live runs only; cancel drops owed work', () => {
  const s = new WatchSession(input, 'r-1/watch', '2024-01-01T00:00:00Z');
  const none = s.triggered([{ kind: 'command', issue: 4, command: 'cancel', text: '', reply: reply(1) }]);
  assert.equal(none[0]?.kind, 'reply');
  s.triggered([{ kind: 'label', issue: 4, title: '' }]);
  s.started(s.startable()[0]!, s.runId(4));
  const acts = s.triggered([
    { kind: 'command', issue: 4, command: 'status', text: '', reply: reply(2) },
    { kind: 'command', issue: 4, command: 'retry', text: 'use the v2 API', reply: reply(3) },
    { kind: 'command', issue: 4, command: 'cancel', text: '', reply: reply(4) },
  ]);
  assert.deepEqual(
    acts.map((a) => a.kind),
    ['status', 'retry', 'cancel'],
  );
  assert.equal(acts[1]?.kind === 'retry' ? acts[1].text : '', 'use the v2 API');
});

test('a plain comment is relayed as an answer to the issue’s live run only; it owes no work', () => {
  const s = new WatchSession(input, 'r-1/watch', '2024-01-01T00:00:00Z');
  s.triggered([{ kind: 'label', issue: 1, title: '' }]);
  s.started(s.startable()[0]!, s.runId(1));
  const live = s.triggered([{ kind: 'comment', issue: 1, text: 'add them', reply: reply(5) }]);
  assert.deepEqual(
    live.map((a) => (a.kind === 'answer' ? [a.kind, a.run.workflowId, a.text, a.reply.author] : [a.kind])),
    [['answer', s.runId(1), 'add them', 'alice']],
  );
  assert.deepEqual(s.triggered([{ kind: 'comment', issue: 2, text: 'hello', reply: reply(6) }]), [], 'no run: nothing');
  s.checked({ workflowId: s.runId(1), status: 'closed', outcome: 'success' });
  assert.deepEqual(s.triggered([{ kind: 'comment', issue: 1, text: 'thanks', reply: reply(7) }]), [], 'ended: nothing');
  assert.deepEqual(s.progress().pending, [], 'a comment never starts or continues a run');
});

test('`/extend 5` raises the live run’s budget; with no live run it gets a reply and owes nothing', () => {
  const s = new WatchSession(input, 'r-1/watch', '2024-01-01T00:00:00Z');
  const none = s.triggered([{ kind: 'extend', issue: 1, usd: 5, reply: reply(8) }]);
  assert.deepEqual(
    none.map((a) => (a.kind === 'reply' ? a.text : a.kind)),
    ['no live run for #1: nothing to extend'],
  );
  s.triggered([{ kind: 'label', issue: 1, title: '' }]);
  s.started(s.startable()[0]!, s.runId(1));
  const live = s.triggered([{ kind: 'extend', issue: 1, usd: 2.5, reply: reply(9) }]);
  assert.deepEqual(
    live.map((a) => (a.kind === 'extend' ? [a.kind, a.run.workflowId, a.usd] : [a.kind])),
    [['extend', s.runId(1), 2.5]],
  );
  assert.deepEqual(s.progress().pending, [], 'an extension never starts or continues a run');
});
