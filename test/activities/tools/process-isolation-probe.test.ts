/**
 * A namespace probe that runs out of time on a loaded host is asked again with more
 * time: read as "unsupported", it would leave the worker with weaker isolation (root
 * instead of the sandbox user, or no namespaces at all) for the rest of its life.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { probeSucceeds } from '../../../src/activities/tools/process-isolation.js';

function scripted(answers: ReadonlyArray<{ exitCode: number | null; timedOut: boolean }>) {
  const limits: number[] = [];
  const run = async (request: { timeoutMs?: number }) => {
    limits.push(request.timeoutMs ?? 0);
    const answer = answers[limits.length - 1];
    if (answer === undefined) throw new Error('asked once too often');
    return answer;
  };
  return { run, limits };
}

test('a probe that timed out is run again with more time, and its answer counts', async () => {
  const probe = scripted([
    { exitCode: null, timedOut: true },
    { exitCode: 0, timedOut: false },
  ]);
  assert.equal(await probeSucceeds(['unshare', '--pid', 'true'], probe.run), true);
  assert.equal(probe.limits.length, 2);
  assert.ok(probe.limits[1]! > probe.limits[0]!, `the second try has more time: ${probe.limits.join(', ')}`);
});

test('an answer is final: a probe that fails is not asked again', async () => {
  const probe = scripted([{ exitCode: 1, timedOut: false }]);
  assert.equal(await probeSucceeds(['unshare', '--pid', 'true'], probe.run), false);
  assert.equal(probe.limits.length, 1);
});

test('a probe that never answers in time counts as unsupported, after the longest limit', async () => {
  const probe = scripted([
    { exitCode: null, timedOut: true },
    { exitCode: null, timedOut: true },
    { exitCode: null, timedOut: true },
  ]);
  assert.equal(await probeSucceeds(['unshare', '--pid', 'true'], probe.run), false);
  assert.equal(probe.limits.length, 3);
});
