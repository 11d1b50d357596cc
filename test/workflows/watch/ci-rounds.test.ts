/**
 * The watcher's rules for red CI, pure: a confirmed failure starts a continuation while
 * rounds are left and says so on the pull request; at the cap it says that once and stops
 * reading the checks; remembered ids stay bounded.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decideCheckFailure, nextCi } from '../../../src/workflows/watch/state/ci-rounds.js';

const failed = (checkRunId: number) =>
  ({ kind: 'check-failed', issue: 3, pull: 12, checkRunId, name: 'unit', sha: 'abcdef1234', text: 'fix it' }) as const;

test('a round while rounds are left, then the cap', () => {
  const first = decideCheckFailure(undefined, failed(1), 1, '@issue-agent');
  assert.equal(first.work, true);
  assert.deepEqual(first.ci, { rounds: 1, handled: [1], reran: [] });
  assert.deepEqual(first.reply.to, { issue: 12, commentId: 1, author: '' }, 'replied on the pull request');
  assert.match(first.reply.text, /`unit` failed on `abcdef1`: the agent is working on it .*round 1 of 1/);
  const second = decideCheckFailure(first.ci, failed(2), 1, '@issue-agent');
  assert.equal(second.work, false);
  assert.equal(second.ci.stopped, true);
  assert.match(second.reply.text, /cap of 1 round .*`@issue-agent retry <guidance>`/);
  assert.equal(decideCheckFailure(undefined, failed(3), 0, '@bot').work, false, 'ciRounds 0: never');
});

test('remembered ids are bounded; stopped stays stopped', () => {
  let ci = nextCi(undefined, { stopped: true });
  for (let i = 0; i < 80; i++) ci = nextCi(ci, { checkRunId: i, reran: `c@${i}` });
  assert.equal(ci.handled.length, 50);
  assert.equal(ci.handled.at(-1), 79);
  assert.equal(ci.reran.length, 50);
  assert.equal(ci.stopped, true);
});
