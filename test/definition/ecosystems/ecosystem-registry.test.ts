/**
 * The registry is the one list of ecosystems: every id has one entry with a page in
 * docs/environments/, and the shared machinery (test-command detection, unrecoverable
 * patterns, registry setups, a configured setup's inputs) takes its ecosystems from it
 * and names none itself, so adding one is a module, its test and its page.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ENVIRONMENT_PATTERNS } from '../../../src/activities/conditions/unrecoverable.js';
import { cacheLayout, worktreeLayout } from '../../../src/activities/environment/cache-layout.js';
import { planRegistrySetups } from '../../../src/activities/environment/registry-setup.js';
import { sandboxEnvironment } from '../../../src/activities/environment/sandbox-environment.js';
import { Ecosystem } from '../../../src/contracts/environment.js';
import { ECOSYSTEMS, ECOSYSTEMS_IN_SETUP_ORDER } from '../../../src/definition/ecosystems/ecosystem-registry.js';
import { EcosystemId, type EcosystemModule } from '../../../src/definition/ecosystems/ecosystem.js';
import { detectCommands } from '../../../src/definition/repo-config/detect-commands.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

test('every ecosystem id has exactly one registry entry', () => {
  assert.deepEqual(
    ECOSYSTEMS.map((e) => e.id),
    [...new Set(ECOSYSTEMS.map((e) => e.id))],
  );
  assert.deepEqual(ECOSYSTEMS.map((e) => e.id).sort(), Object.values(EcosystemId).sort());
  assert.deepEqual(ECOSYSTEMS_IN_SETUP_ORDER.map((e) => e.id).sort(), Object.values(EcosystemId).sort());
});

test('every registry entry names a page in docs/environments/ that exists', () => {
  for (const ecosystem of ECOSYSTEMS) {
    const page = join(ROOT, 'docs', 'environments', ecosystem.docPage);
    assert.ok(existsSync(page), `${ecosystem.id}: docs/environments/${ecosystem.docPage} is missing`);
  }
});

test('the shared machinery names no ecosystem: it takes them from the registry', () => {
  const names =
    /\b(?:cargo|Cargo\.toml|mvn|pom\.xml|gradle|cmake|pytest|noxfile|tox\.ini|go\.mod|package\.json|pnpm|yarn)\b/i;
  const variables =
    /\b(?:npm_config_\w+|PIP_\w+|UV_\w+|POETRY_\w+|PDM_\w+|GOMODCACHE|GOCACHE|GOPATH|CARGO_\w+|MAVEN_\w+|YARN_\w+|BUN_\w+|PYENV_ROOT|RUSTUP_HOME|NVM_DIR)\b/;
  for (const file of [
    'src/definition/repo-config/detect-commands.ts',
    'src/activities/environment/registry-setup.ts',
    'src/activities/environment/setup-env.ts',
    'src/activities/environment/detect-setup.ts',
    'src/activities/environment/sandbox-environment.ts',
  ]) {
    const code = readFileSync(join(ROOT, file), 'utf8').replace(/\/\*\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    assert.doesNotMatch(code, names, file);
    assert.doesNotMatch(code, variables, file);
  }
  for (const ecosystem of ECOSYSTEMS)
    for (const pattern of ecosystem.unrecoverable ?? [])
      assert.ok(ENVIRONMENT_PATTERNS.includes(pattern), `${ecosystem.id}: ${String(pattern.match)}`);
});

test('detection and registry setups use what an entry declares (a fake ecosystem)', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'fake-ecosystem-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'fake.build'), '');
  await writeFile(join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'node --test' } }));
  const fake: EcosystemModule = {
    id: EcosystemId.Node,
    docPage: 'fake.md',
    setupInputs: ['fake.build'],
    testCommand: async (d) =>
      existsSync(join(d, 'fake.build')) ? { commands: { test: 'fake test' }, reasons: ['test: fake test'] } : undefined,
    setup: async () => ({
      detected: 'fake: fake fetch',
      ecosystem: Ecosystem.Configured,
      pythonApp: { name: 'fakeapp', version: '1.0' },
      steps: [{ id: 'fake-fetch', command: 'fake fetch', reason: 'fake', inputs: ['fake.build'] }],
      sandbox: { env: { FAKE_OFFLINE: '1' }, readOnlyDirs: ['/fake/cache'] },
    }),
  };
  assert.equal((await detectCommands(dir, [fake, ...ECOSYSTEMS])).commands.test, 'fake test');
  assert.equal((await detectCommands(dir)).commands.test, 'npm test');
  const caches = cacheLayout(dir, { ISSUE_AGENT_STATE_DIR: dir });
  const plan = await planRegistrySetups({
    dir,
    caches,
    worktree: worktreeLayout(dir, { ISSUE_AGENT_STATE_DIR: dir }),
    python: { python: 'python3', uv: false },
    ecosystems: [fake],
  });
  assert.deepEqual(plan.detected, ['fake: fake fetch']);
  assert.deepEqual(plan.sandboxViews, [{ env: { FAKE_OFFLINE: '1' }, readOnlyDirs: ['/fake/cache'] }]);
  assert.deepEqual(
    plan.steps.map((s) => [s.id, s.ecosystem]),
    [
      ['python-app-fakeapp', 'python'],
      ['fake-fetch', 'configured'],
    ],
  );
  assert.match(plan.steps[0]?.command ?? '', /-m venv .*fakeapp-1\.0 .*fakeapp==1\.0/);
  assert.deepEqual(
    plan.pythonApps.map((a) => a.binDir),
    [join(caches.tools, 'fakeapp-1.0', 'exposed')],
  );
});

test('Node and Python plan their setups as registry modules, first in setup order', async (t) => {
  assert.deepEqual(
    ECOSYSTEMS_IN_SETUP_ORDER.slice(0, 2).map((e) => [e.id, typeof e.setup]),
    [
      ['node', 'function'],
      ['python', 'function'],
    ],
  );
  const dir = await mkdtemp(join(tmpdir(), 'node-python-ecosystems-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'x', packageManager: 'yarn@1.22.22' }));
  await writeFile(join(dir, 'yarn.lock'), '# yarn lockfile v1\n');
  await writeFile(join(dir, 'pyproject.toml'), '[project]\nname = "x"\nversion = "1"\n');
  await writeFile(join(dir, 'Cargo.toml'), '[package]\nname = "x"\n');
  const caches = cacheLayout(dir, { ISSUE_AGENT_STATE_DIR: dir });
  const worktree = worktreeLayout(dir, { ISSUE_AGENT_STATE_DIR: dir });
  const plan = await planRegistrySetups({ dir, caches, worktree, python: { python: 'python3', uv: false } });
  assert.deepEqual(
    plan.steps.map((s) => [s.id, s.ecosystem]),
    [
      ['node-install', 'yarn'],
      ['python-venv', 'python'],
      ['python-install', 'python'],
      ['cargo-fetch', 'rust'],
    ],
  );
  assert.match(plan.detected[0] ?? '', /^yarn 1\.22\.22 \(classic\): yarn install --frozen-lockfile/);
  assert.match(plan.detected[1] ?? '', /^python: pyproject\.toml: a virtualenv /);
  assert.deepEqual(
    plan.tools.map((tool) => tool.spec),
    ['yarn@1.22.22'],
  );
  assert.equal(plan.interpreter, `${worktree.venv}/bin/python`);
  const sandbox = sandboxEnvironment({ plan, toolBins: ['/tools/yarn/bin'], toolPrefixes: [] });
  assert.deepEqual(sandbox.pathPrepend, [`${worktree.venv}/bin`, '/tools/yarn/bin']);
  assert.equal(sandbox.env['VIRTUAL_ENV'], worktree.venv);
  assert.equal(sandbox.env['YARN_ENABLE_OFFLINE_MODE'], '1');
  assert.equal(sandbox.env['CARGO_NET_OFFLINE'], 'true');
  for (const dir of [worktree.venv, caches.yarnBerry, caches.cargoHome])
    assert.ok(sandbox.readOnlyDirs.includes(dir), dir);
});
