/** Step inputs resolved once per run: cached by run and input, failures not cached, bounded. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createStepInputCache } from '../../src/activities/step/step-input-cache.js';

test('a run resolves an input once; another run or another input resolves afresh', async () => {
  const cache = createStepInputCache();
  let calls = 0;
  const resolve = async (input: { file: string }): Promise<string> => `${input.file}#${++calls}`;
  assert.equal(await cache.get('run-a', { file: 'x' }, resolve), 'x#1');
  assert.equal(await cache.get('run-a', { file: 'x' }, resolve), 'x#1');
  assert.equal(await cache.get('run-b', { file: 'x' }, resolve), 'x#2');
  assert.equal(await cache.get('run-a', { file: 'y' }, resolve), 'y#3');
  assert.equal(calls, 3);
});

test('a failed resolution is not cached', async () => {
  const cache = createStepInputCache();
  let calls = 0;
  const flaky = async (): Promise<string> => {
    calls += 1;
    if (calls === 1) throw new Error('transient');
    return 'ok';
  };
  await assert.rejects(cache.get('run', 1, flaky), /transient/);
  assert.equal(await cache.get('run', 1, flaky), 'ok');
  assert.equal(calls, 2);
});

test('the cache keeps at most maxEntries, dropping the least recently used', async () => {
  const cache = createStepInputCache(2);
  let calls = 0;
  const resolve = async (n: number): Promise<number> => ((calls += 1), n);
  await cache.get('run', 1, resolve);
  await cache.get('run', 2, resolve);
  await cache.get('run', 1, resolve); // 1 is now the most recent
  await cache.get('run', 3, resolve); // evicts 2
  assert.equal(cache.size, 2);
  await cache.get('run', 1, resolve);
  assert.equal(calls, 3);
  await cache.get('run', 2, resolve);
  assert.equal(calls, 4);
});
