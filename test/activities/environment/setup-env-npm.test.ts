/**
 * npm run with the setup environment prints no warning about it: npm 11 warns about every
 * `npm_config_*` variable it does not know (pnpm's store dir was one), on every npm command
 * of every setup, in the output the user and the agent read.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { execa } from 'execa';
import { cachesUnder } from '../../../src/activities/environment/cache-layout.js';
import { setupEnv } from '../../../src/activities/environment/setup-env.js';
import { ALL_CACHE_OWNERS } from '../../../src/activities/environment/setup-scope.js';

test('npm under the setup env warns about none of its variables; pnpm 11 still finds its store', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'setup-env-npm-'));
  try {
    const caches = cachesUnder(path.join(dir, 'cache'), 'repo');
    const worktree = {
      dir: path.join(dir, 'wt'),
      venv: path.join(dir, 'wt', 'venv'),
      goCache: path.join(dir, 'wt', 'gocache'),
      validatorGoCache: path.join(dir, 'wt', 'validator-gocache'),
      setupHome: path.join(dir, 'wt', 'setup-home'),
      stamps: path.join(dir, 'wt', 'stamps'),
    };
    const env = setupEnv({ source: process.env, caches, worktree, pathPrepend: [], owners: ALL_CACHE_OWNERS });
    assert.equal(env['pnpm_config_store_dir'], caches.pnpmStore);
    await writeFile(
      path.join(dir, 'package.json'),
      JSON.stringify({ name: 'p', version: '1.0.0', scripts: { test: 'echo tested' } }),
    );
    const run = await execa('npm', ['test'], { cwd: dir, env, extendEnv: false, all: true });
    assert.match(run.all, /tested/);
    assert.doesNotMatch(run.all, /npm warn/i, run.all);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
