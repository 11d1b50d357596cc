/** The content addressing shared by the store (writes, reads by reference) and `artifacts --show`. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import {
  ArtifactCheck,
  checkArtifactBytes,
  sha256Hex,
  sha256InName,
} from '../../../src/activities/artifacts/artifact-integrity.js';
import { createArtifactStore } from '../../../src/activities/artifacts/artifact-store.js';

test('a name the store writes carries the sha256 its check verifies; a forged content is a mismatch', async () => {
  const store = createArtifactStore(await mkdtemp(join(tmpdir(), 'integrity-')));
  const ref = await store.put('tool-output-t1-0', 'the real output');
  const name = basename(ref.path);
  assert.equal(sha256InName(name), ref.sha256);
  assert.deepEqual(checkArtifactBytes(name, await readFile(ref.path)), { check: ArtifactCheck.Verified });

  await writeFile(ref.path, 'a forged output');
  assert.deepEqual(checkArtifactBytes(name, await readFile(ref.path)), {
    check: ArtifactCheck.Mismatch,
    expected: ref.sha256,
    actual: sha256Hex('a forged output'),
  });
  await assert.rejects(store.read(ref), /does not match its sha256/);
});

test('records and other names without a sha256 are unaddressed, not verified', () => {
  for (const name of ['latest.record.json', 'todos.json', 'validator.bbb.txt'])
    assert.deepEqual(checkArtifactBytes(name, Buffer.from('{}')), { check: ArtifactCheck.Unaddressed }, name);
});
