/**
 * The base prefix of a venv is shown read-only to every later sandbox, and it is what a
 * process of the repository's setup printed: a hostile one answers `/root` (the worker's
 * home, hidden) or `/`. Only a prefix holding a Python standard library, and covering no
 * hidden directory, is kept; the probe runs without `site` and isolated.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pythonBasePrefix } from '../../../src/activities/environment/python-base.js';
import type { CommandRequest, CommandRunner } from '../../../src/activities/process/command-runner.js';
import { exited } from '../../helpers/command-outcome.js';

const dirs: string[] = [];
after(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

function answering(output: string, seen: CommandRequest[] = []): CommandRunner {
  return {
    run: async (request) => {
      seen.push(request);
      return exited(0, output);
    },
  };
}

async function pythonPrefix(): Promise<string> {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'python-base-')));
  dirs.push(dir);
  await mkdir(path.join(dir, 'lib', 'python3.12'), { recursive: true });
  await writeFile(path.join(dir, 'lib', 'python3.12', 'os.py'), '# stdlib\n');
  return dir;
}

const ask = (runner: CommandRunner, hidden: readonly string[]) =>
  pythonBasePrefix({ runner, python: '/v/bin/python', cwd: '/', env: {}, hidden });

test('a real prefix is kept; the probe runs isolated and without site', async () => {
  const prefix = await pythonPrefix();
  const seen: CommandRequest[] = [];
  assert.equal(await ask(answering(`${prefix}\n`, seen), ['/root', '/tmp']), prefix);
  assert.match(seen[0]?.command ?? '', /-I -S -c/);
});

test("a prefix that is or contains a hidden directory is refused: the worker's home is never shown", async () => {
  const home = await pythonPrefix(); // even one that looks like a Python installation
  assert.equal(await ask(answering(`${home}\n`), [home]), undefined, 'the hidden dir itself');
  assert.equal(await ask(answering('/\n'), [home]), undefined, 'an ancestor of it');
  assert.equal(await ask(answering(`noise\n${path.dirname(home)}\n`), [home]), undefined, 'the last line counts');
});

test('a directory without a standard library is refused', async () => {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'not-python-')));
  dirs.push(dir);
  assert.equal(await ask(answering(`${dir}\n`), ['/nonexistent-hidden']), undefined);
  assert.equal(await ask(answering('relative/path\n'), []), undefined);
});
