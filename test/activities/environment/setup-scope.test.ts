/**
 * Which shared dirs one setup command may write: its own ecosystem's caches, all of them
 * for a configured setup, the tools dir only for a tool fetch; the other ecosystems'
 * variables point at the worktree's own caches.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { cachesUnder } from '../../../src/activities/environment/cache-layout.js';
import { setupEnv } from '../../../src/activities/environment/setup-env.js';
import { ALL_CACHE_OWNERS, setupScope, sharedCacheDirs } from '../../../src/activities/environment/setup-scope.js';
import { EcosystemId } from '../../../src/definition/ecosystems/ecosystem.js';

const caches = cachesUnder('/state/cache', 'repo');
const dir = '/state/worktrees/w1';
const worktree = {
  dir,
  venv: `${dir}/venv`,
  goCache: `${dir}/gocache`,
  validatorGoCache: `${dir}/validator-gocache`,
  setupHome: `${dir}/setup-home`,
  stamps: `${dir}/stamps`,
};

test("each ecosystem's shared caches are its own, named by its setupEnv", () => {
  assert.deepEqual(sharedCacheDirs([EcosystemId.Rust], caches, worktree), [caches.cargoHome]);
  assert.deepEqual(sharedCacheDirs([EcosystemId.Go], caches, worktree).sort(), [caches.goBuild, caches.goMod].sort());
  assert.deepEqual(sharedCacheDirs([EcosystemId.Maven], caches, worktree), [caches.maven]);
  const python = sharedCacheDirs([EcosystemId.Python], caches, worktree);
  assert.deepEqual(python.sort(), [caches.pip, caches.uv, caches.poetry, caches.pdm].sort());
  const node = sharedCacheDirs([EcosystemId.Node], caches, worktree);
  assert.ok(node.includes(caches.npm) && node.includes(caches.pnpmStore) && !node.includes(caches.cargoHome));
  assert.deepEqual(sharedCacheDirs([EcosystemId.CBuild, EcosystemId.Nox], caches, worktree), []);
});

test('a configured setup writes every shared cache but the tools and stamps', () => {
  const all = sharedCacheDirs(ALL_CACHE_OWNERS, caches, worktree);
  for (const dir of [caches.npm, caches.pip, caches.cargoHome, caches.goMod, caches.maven])
    assert.ok(all.includes(dir));
  assert.ok(!all.includes(caches.tools) && !all.includes(caches.stamps) && !all.includes(caches.root));
});

test('the tools dir is writable for a tool fetch only; read-only for every other command', () => {
  const step = setupScope({ owners: [EcosystemId.Python], caches, worktree });
  assert.ok(!step.writableDirs.includes(caches.tools));
  assert.deepEqual(step.readOnlyDirs, [caches.tools]);
  assert.ok(step.writableDirs.includes(worktree.dir), "the worktree's own dirs");
  const fetch = setupScope({ owners: [EcosystemId.Python], installsTool: true, caches, worktree });
  assert.ok(fetch.writableDirs.includes(caches.tools));
});

test("the other ecosystems' cache variables point inside the worktree's own dir", () => {
  const env = setupEnv({ source: { PATH: '/usr/bin' }, caches, worktree, pathPrepend: [], owners: [EcosystemId.Node] });
  assert.equal(env['npm_config_cache'], caches.npm);
  for (const name of ['CARGO_HOME', 'PIP_CACHE_DIR', 'UV_CACHE_DIR', 'GOMODCACHE', 'MAVEN_USER_HOME'])
    assert.ok(env[name]?.startsWith(`${dir}${path.sep}`), `${name}=${env[name]}`);
  const all = setupEnv({ source: { PATH: '/usr/bin' }, caches, worktree, pathPrepend: [] });
  assert.equal(all['CARGO_HOME'], caches.cargoHome, 'by default (a configured setup) the shared ones');
});
