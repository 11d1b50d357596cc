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
    python: 'python3',
    alreadyDetected: 0,
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
