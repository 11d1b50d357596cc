import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ActivityDeps } from '../../src/activities/deps.js';
import { createWorkerActivities } from '../../src/activities/all-activities.js';
import { WORKER_ACTIVITY_NAMES, type WorkerActivities } from '../../src/contracts/worker-activities.js';
import { lazyActivities } from '../../src/worker/lazy-activities.js';

test('the registered names are exactly the activities the worker builds', () => {
  const built = createWorkerActivities({ bashEnv: {} } as unknown as ActivityDeps);
  assert.deepEqual([...WORKER_ACTIVITY_NAMES].sort(), Object.keys(built).sort());
});

test('a lazy activity waits for the load, then passes its arguments and result through', async () => {
  let release!: (impl: WorkerActivities) => void;
  const loaded = new Promise<WorkerActivities>((resolve) => (release = resolve));
  const lazy = lazyActivities(loaded);
  assert.deepEqual(Object.keys(lazy).sort(), [...WORKER_ACTIVITY_NAMES].sort());
  const pending = lazy.readIssueLabels({ repoPath: '/r', issue: 7 } as never);
  release({ readIssueLabels: async (input: unknown) => ({ echoed: input }) } as unknown as WorkerActivities);
  assert.deepEqual(await pending, { echoed: { repoPath: '/r', issue: 7 } });
});

test('a failed load fails every call with its error', async () => {
  const broken = new Error('cannot load the activities');
  const loaded = Promise.reject(broken);
  loaded.catch(() => undefined);
  const lazy = lazyActivities(loaded);
  await assert.rejects(lazy.queryStep({} as never), (e: unknown) => e === broken);
  await assert.rejects(lazy.awaitRun({} as never), (e: unknown) => e === broken);
});
