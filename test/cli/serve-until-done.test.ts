/**
 * The take-over rule of serveUntilDone: a command that found a (possibly dead) worker
 * polling keeps looking, and serves itself once no live poller is left.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveUntilDone, workersGone } from '../../src/cli/serve-until-done.js';

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

test('the workers are gone but this process has no model credentials: it does not serve, releases the steps and waits', async () => {
  const said: string[] = [];
  const cli = { taskQueue: 'q-no-creds' } as unknown as Parameters<typeof serveUntilDone>[0];
  // The run ends once a worker (started by the operator) serves it: here, after a few looks.
  const result = new Promise<string>((resolve) => setTimeout(() => resolve('delivered'), 60));
  const value = await serveUntilDone(cli, result, {
    embedded: false,
    pollers: async () => 0,
    canServe: () => false,
    recheckMs: 5,
    say: (line) => said.push(line),
    releaseOrphans: async () => ['the worker that ran queryStep (pid 1) is gone: that step is retried now'],
  });
  assert.equal(value, 'delivered', 'the result is still awaited and returned');
  assert.match(
    said[0] ?? '',
    /q-no-creds any more \(the one that did is gone\); this process has no model credentials/,
  );
  assert.doesNotMatch(said.join('\n'), /serving in this process/);
  assert.match(said[1] ?? '', /that step is retried now/, 'the dead worker’s steps are still released');
});
