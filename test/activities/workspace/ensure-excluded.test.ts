import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { appendExcludes } from '../../../src/activities/workspace/ensure-excluded.js';

test('appendExcludes appends only what the exclude file does not list, under its reason', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'exclude-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'info', 'exclude');

  assert.deepEqual(await appendExcludes(file, ['/target/', '/a.txt', '/target/'], 'first'), ['/target/', '/a.txt']);
  // A second prepare of the same worktree asks again: nothing is written twice.
  assert.deepEqual(await appendExcludes(file, ['/target/', '/b.txt'], 'second'), ['/b.txt']);
  assert.deepEqual(await appendExcludes(file, ['/target/'], 'third'), []);
  assert.equal(await readFile(file, 'utf8'), '# first\n/target/\n/a.txt\n# second\n/b.txt\n');
});

test('appendExcludes counts a directory listed without its slash, and starts a line of its own', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'exclude-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'exclude');
  await writeFile(file, '/.worktrees', 'utf8');

  assert.deepEqual(await appendExcludes(file, ['/.worktrees/', '/node_modules/'], 'setup'), ['/node_modules/']);
  assert.equal(await readFile(file, 'utf8'), '/.worktrees\n# setup\n/node_modules/\n');
});
