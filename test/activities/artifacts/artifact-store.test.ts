import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { createArtifactStore, stepArtifactDir } from '../../../src/activities/artifacts/artifact-store.js';

test('content-addressed, idempotent, verified on read', async () => {
  const base = mkdtempSync(path.join(os.tmpdir(), 'art-'));
  const dir = stepArtifactDir(base, 'agent-issue-1', 'initial.issue', 2);
  assert.equal(dir, path.join(base, 'agent-issue-1', 'initial.issue-2'));
  assert.equal(stepArtifactDir(base, '../evil', 'a/b', 1), path.join(base, '__evil', 'a_b-1'));
  const store = createArtifactStore(dir);
  const a = await store.putJson('messages', [{ role: 'user' }]);
  const b = await store.putJson('messages', [{ role: 'user' }]);
  assert.deepEqual(a, b);
  assert.ok(a.path.includes(a.sha256));
  assert.deepEqual(await store.readJson(a), [{ role: 'user' }]);
  writeFileSync(a.path, '[]');
  await assert.rejects(store.read(a), { code: 'ARTIFACT_CORRUPT' });
  await assert.rejects(store.read({ ...a, path: `${a.path}.missing` }), { code: 'ARTIFACT_MISSING' });
});

test('a store whose directory was removed after its first write makes it again', async () => {
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'art-')), 'run', 'step-1');
  const store = createArtifactStore(dir);
  await store.writeRecord('checkpoint', { turn: 1 });
  rmSync(path.dirname(dir), { recursive: true });
  await store.writeRecord('checkpoint', { turn: 2 });
  assert.deepEqual(await store.readRecord('checkpoint'), { turn: 2 });
  rmSync(dir, { recursive: true });
  const ref = await store.put('transcript', 'turn 2');
  assert.equal((await store.read(ref)).toString('utf8'), 'turn 2');
});
