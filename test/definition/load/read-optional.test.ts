/** The one read of a file that may be absent. */
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { isMissing, readOptional } from '../../../src/definition/load/read-optional.js';

async function withDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'read-optional-'));
  try {
    await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('a file is read; a missing one is undefined', () =>
  withDir(async (dir) => {
    await writeFile(join(dir, 'a.txt'), 'hello');
    assert.equal(await readOptional(join(dir, 'a.txt')), 'hello');
    assert.equal(await readOptional(join(dir, 'none.txt')), undefined);
    assert.equal(await readOptional(join(dir, 'no-dir', 'none.txt')), undefined);
  }));

test('a directory where the file should be is an error, not a missing file', () =>
  withDir(async (dir) => {
    await mkdir(join(dir, 'sub'));
    await assert.rejects(readOptional(join(dir, 'sub')), { code: 'EISDIR' });
  }));

test('a file as a parent is an error unless the caller says such a parent means missing', () =>
  withDir(async (dir) => {
    await writeFile(join(dir, 'file'), 'x');
    await assert.rejects(readOptional(join(dir, 'file', 'child')), { code: 'ENOTDIR' });
    assert.equal(await readOptional(join(dir, 'file', 'child'), { parentMayBeFile: true }), undefined);
  }));

test('isMissing is true only for ENOENT', () => {
  assert.equal(isMissing(Object.assign(new Error('x'), { code: 'ENOENT' })), true);
  assert.equal(isMissing(Object.assign(new Error('x'), { code: 'EACCES' })), false);
  assert.equal(isMissing(undefined), false);
});
