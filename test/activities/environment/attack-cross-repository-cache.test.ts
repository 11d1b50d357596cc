/**
 * One repository's setup must not poison what another repository's runs use. Setup runs
 * the repository's code (here an npm `postinstall`; a `setup.py` or a Cargo build script
 * alike) and the shared caches are read by every later run on the worker: a file planted
 * in cargo's `registry/src` is compiled into the next Rust repository's build. So a Node
 * setup may fill the Node caches only: the other ecosystems' shared caches and the fetched
 * tools are out of its reach, even at their exact paths, and their variables point at the
 * worktree's own caches.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { SetupStepStatus } from '../../../src/contracts/environment.js';
import { cacheLayout } from '../../../src/activities/environment/cache-layout.js';
import { useEnvironmentProject } from './environment-fixtures.js';

let caches: ReturnType<typeof cacheLayout>;

/** Each write fails quietly; what it saw of the cache variables is kept for the asserts. */
function hostilePostinstall(): string {
  const targets = [
    path.join(caches.cargoHome, 'registry', 'src', 'poison.rs'),
    path.join(caches.pip, 'poison'),
    path.join(caches.goMod, 'poison'),
    path.join(caches.mavenRepo, 'poison'),
    path.join(caches.tools, 'pnpm-9.15.0', 'poison'),
  ];
  return [
    ...targets.map((t) => `mkdir -p ${path.dirname(t)} 2>/dev/null; touch ${t} 2>/dev/null`),
    'touch "$CARGO_HOME/planted-via-env" 2>/dev/null',
    'touch "$npm_config_cache/written-by-node-setup"',
    'echo "$CARGO_HOME $PIP_CACHE_DIR" > seen-caches.txt',
    'true',
  ].join('; ');
}

const env = useEnvironmentProject({
  'package.json': JSON.stringify({ name: 'hostile', version: '1.0.0', private: true, scripts: {} }),
  '.gitignore': 'node_modules/\nseen-caches.txt\n',
});

test("a Node setup's postinstall fills the Node caches and reaches no other ecosystem's, nor the fetched tools", async () => {
  const { repo } = env.project;
  caches = cacheLayout(repo.dir);
  // Another repository's runs filled these earlier.
  for (const dir of [caches.cargoHome, caches.pip, caches.goMod, caches.mavenRepo, caches.tools])
    await mkdir(dir, { recursive: true });
  const manifest = { name: 'hostile', version: '1.0.0', private: true, scripts: { postinstall: hostilePostinstall() } };
  const lock = { name: 'hostile', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': manifest } };
  await repo.write({ 'package.json': JSON.stringify(manifest, null, 2), 'package-lock.json': JSON.stringify(lock) });
  await repo.git('add', '-A');
  await repo.git('commit', '--quiet', '-m', 'a postinstall');
  const dir = await env.project.worktree();
  const report = await env.prepare(dir);

  assert.equal(report.steps.find((s) => s.ecosystem === 'npm')?.status, SetupStepStatus.Ran, JSON.stringify(report));
  assert.equal(existsSync(path.join(caches.npm, 'written-by-node-setup')), true, 'its own ecosystem: writable');
  for (const planted of [
    path.join(caches.cargoHome, 'registry', 'src', 'poison.rs'),
    path.join(caches.cargoHome, 'planted-via-env'),
    path.join(caches.pip, 'poison'),
    path.join(caches.goMod, 'poison'),
    path.join(caches.mavenRepo, 'poison'),
    path.join(caches.tools, 'pnpm-9.15.0', 'poison'),
  ])
    assert.equal(existsSync(planted), false, `planted in a shared cache: ${planted}`);
  const [cargoHome, pipCache] = readFileSync(path.join(dir, 'seen-caches.txt'), 'utf8').trim().split(' ');
  assert.ok(cargoHome && !cargoHome.startsWith(caches.root), `CARGO_HOME is the worktree's own: ${cargoHome}`);
  assert.ok(pipCache && !pipCache.startsWith(caches.root), `PIP_CACHE_DIR is the worktree's own: ${pipCache}`);
});
