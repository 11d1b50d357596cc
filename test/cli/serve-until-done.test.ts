/**
 * The take-over rule of serveUntilDone: a command that found a (possibly dead) worker
 * polling keeps looking, and serves itself once no live poller is left.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { workersGone } from '../../src/cli/serve-until-done.js';

const never = new Promise<never>(() => {});

test("the pollers disappear (the killed worker's poll expired): take over", async () => {
  const counts = [2, 1, 0];
  let looks = 0;
  const gone = await workersGone(never, async () => counts[looks++] ?? 0, 5);
  assert.equal(gone, true);
  assert.equal(looks, 3);
});

test('the result arrives while a worker polls: never take over', async () => {
  let looks = 0;
  const settled = new Promise((resolve) => setTimeout(resolve, 40));
  const gone = await workersGone(settled, async () => (looks++, 1), 5);
  assert.equal(gone, false);
  assert.ok(looks > 0);
});

test('a failed result also ends the watch, and a failed look counts as a live worker', async () => {
  const failed = Promise.reject(new Error('run failed'));
  assert.equal(await workersGone(failed, async () => 0, 50), false);
  let looks = 0;
  const settled = new Promise((resolve) => setTimeout(resolve, 40));
  const gone = await workersGone(
    settled,
    async () => {
      looks++;
      throw new Error('server unreachable');
    },
    5,
  );
  assert.equal(gone, false);
  assert.ok(looks > 0);
});
