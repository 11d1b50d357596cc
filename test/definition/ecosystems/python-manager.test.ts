/**
 * Which manager a Python project has (uv, Poetry, none) and the plan its lockfile gets,
 * without the network: uv fetched then `uv sync --frozen` into the venv with the test
 * groups and extras; Poetry fetched, a venv, then `poetry install --with` the test groups;
 * a `[tool.poetry]` without its lock, or no manager at all, keeps the pip plan; the
 * sandbox of a uv plan has uv on PATH, offline, never syncing; of a Poetry plan, poetry alone.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { cacheLayout, worktreeLayout } from '../../../src/activities/environment/cache-layout.js';
import { detectPython } from '../../../src/definition/ecosystems/python-setup.js';
import { planDetected } from '../../../src/activities/environment/detect-setup.js';
import {
  poetryExtras,
  poetryGroups,
  readManagedProject,
  uvRequiredVersion,
} from '../../../src/definition/ecosystems/python-manager.js';
import { sandboxEnvironment } from '../../../src/activities/environment/sandbox-environment.js';

let root: string;
before(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'env-py-manager-'));
});
after(async () => {
  await rm(root, { recursive: true, force: true });
});

let count = 0;
async function project(files: Record<string, string>): Promise<string> {
  const dir = path.join(root, `p${(count += 1)}`);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  return dir;
}

async function commands(files: Record<string, string>): Promise<{ said: string; steps: string[] }> {
  const dir = await project(files);
  const plan = await detectPython({
    dir,
    venv: '/v',
    caches: cacheLayout(dir),
    tools: { python: 'python3', uv: false },
  });
  assert.ok(plan);
  return { said: plan.detected.join('\n'), steps: plan.steps.map((s) => s.command) };
}

const UV_PROJECT = [
  '[project]',
  'name = "x"',
  'version = "1"',
  '[project.optional-dependencies]',
  'test = ["six"]',
  'docs = ["sphinx"]',
  '[dependency-groups]',
  'dev = ["ruff"]',
  'tests = ["pytest"]',
  '',
].join('\n');

const POETRY_PROJECT = [
  '[tool.poetry]',
  'name = "x"',
  '[tool.poetry.dependencies]',
  'python = "^3.9"',
  '[tool.poetry.group.test.dependencies]',
  'pytest = "*"',
  '[tool.poetry.group.docs]',
  'optional = true',
  '[tool.poetry.group.docs.dependencies]',
  'sphinx = "*"',
  '[tool.poetry.dev-dependencies]',
  'black = "*"',
  '[tool.poetry.extras]',
  'testing = ["six"]',
  'postgres = ["psycopg"]',
  '',
].join('\n');

test('uv.lock: uv fetched into the tools dir, then uv sync --frozen into the venv with the test group and extra', async () => {
  const { said, steps } = await commands({ 'pyproject.toml': UV_PROJECT, 'uv.lock': 'version = 1\n' });
  assert.match(said, /python: uv\.lock: uv 0\.\d+\.\d+ syncs the venv \/v .*group tests, extra test/);
  assert.match(
    steps[0] ?? '',
    /^test -x \S+\/tools\/uv-[\d.]+\/bin\/uv \|\| \{ PIP_CONFIG_FILE=\/dev\/null python3 -I -m pip install .* --prefix \S+ uv==/,
  );
  assert.match(
    steps[1] ?? '',
    /^UV_PROJECT_ENVIRONMENT=\/v \S+\/tools\/uv-[\d.]+\/bin\/uv sync --frozen --group tests --extra test$/,
  );
  assert.equal(steps.length, 2, 'uv makes the venv itself');

  const unlocked = await commands({ 'pyproject.toml': '[project]\nname = "x"\n[tool.uv]\npackage = false\n' });
  assert.match(
    unlocked.steps[1] ?? '',
    /bin\/uv sync; s=\$\?; rm -f uv\.lock; exit \$s$/,
    'no lock: resolved, not kept',
  );
  assert.match(unlocked.said, /\[tool\.uv\], no lockfile/);
});

test('uv: an exact [tool.uv] required-version is the uv fetched; a workspace syncs every member', async () => {
  const pinned =
    '[project]\nname = "x"\n[tool.uv]\nrequired-version = "==0.5.2"\n[tool.uv.workspace]\nmembers = ["packages/*"]\n';
  const { said, steps } = await commands({ 'pyproject.toml': pinned, 'uv.lock': '' });
  assert.match(steps[0] ?? '', /tools\/uv-0\.5\.2\/bin\/uv \|\| .* uv==0\.5\.2 /);
  assert.match(steps[1] ?? '', /tools\/uv-0\.5\.2\/bin\/uv sync --frozen --all-packages$/);
  assert.match(said, /uv 0\.5\.2 \(\[tool\.uv\] required-version\) syncs .*\(every workspace member, the dev group\)/);
  assert.equal(uvRequiredVersion('[tool.uv]\nrequired-version = ">=0.5"\n'), undefined, 'a range: the default uv');
  assert.equal(uvRequiredVersion('[tool.uv]\ndev-dependencies = []\n[other]\nrequired-version = "0.1.0"\n'), undefined);
});

test('poetry.lock: Poetry fetched in a venv of its own, a venv, poetry install --with the test groups and -E the test extras', async () => {
  const { said, steps } = await commands({ 'pyproject.toml': POETRY_PROJECT, 'poetry.lock': '' });
  assert.match(steps[0] ?? '', /^test -f \S+\/tools\/poetry-[\d.]+\/\.complete \|\| \{ rm -rf .* -m venv .* poetry==/);
  assert.equal(steps[1], 'python3 -m venv --without-pip /v');
  assert.match(steps[2] ?? '', /^VIRTUAL_ENV=\/v POETRY_VIRTUALENVS_IN_PROJECT=false POETRY_CACHE_DIR=\S+\/poetry /);
  assert.match(steps[2] ?? '', /bin\/poetry install --no-interaction --with 'test,dev' -E testing$/);
  assert.match(said, /groups test, dev; docs only if not optional; extras testing/);
});

test('a Poetry 2 project with PEP 735 groups and no [tool.poetry] table: its test group installed --with', async () => {
  const pep735 = '[project]\nname = "x"\n[dependency-groups]\ntests = ["pytest"]\nlint = ["ruff"]\n';
  const { said, steps } = await commands({ 'pyproject.toml': pep735, 'poetry.lock': '' });
  assert.match(steps[2] ?? '', /bin\/poetry install --no-interaction --with tests$/);
  assert.match(said, /python: poetry\.lock: Poetry installs .*groups tests; lint only if not optional/);
});

test('pdm.lock: PDM fetched in a venv of its own (hishel capped), a venv, pdm sync --dev -G the test extras', async () => {
  const pdm =
    '[project]\nname = "x"\n[project.optional-dependencies]\ntest = ["six"]\n[tool.pdm.dev-dependencies]\nlint = ["ruff"]\n';
  const { said, steps } = await commands({ 'pyproject.toml': pdm, 'pdm.lock': '' });
  assert.match(
    steps[0] ?? '',
    /^test -f \S+\/tools\/pdm-[\d.]+\/\.complete \|\| .* pdm==2\.29\.4 'hishel<2' && .*exposed\/pdm/,
  );
  assert.equal(steps[1], 'python3 -m venv --without-pip /v');
  assert.match(
    steps[2] ?? '',
    /^VIRTUAL_ENV=\/v PDM_IGNORE_SAVED_PYTHON=1 \S+\/tools\/pdm-2\.29\.4\/bin\/pdm sync --dev -G test$/,
  );
  assert.match(
    said,
    /python: pdm\.lock and pyproject \[tool\.pdm\]: PDM 2\.29\.4 syncs .*\(every dev group; extras test\)/,
  );
  const unlocked = await commands({ 'pyproject.toml': pdm });
  assert.match(unlocked.steps[1] ?? '', / -m pip /, 'no pdm.lock: the pip plan');
});

test('no manager: [tool.poetry] without poetry.lock, or a plain pyproject, keeps the pip plan', async () => {
  for (const files of [{ 'pyproject.toml': POETRY_PROJECT }, { 'pyproject.toml': UV_PROJECT }]) {
    assert.equal(await readManagedProject(await project(files)), undefined);
    const { steps } = await commands(files);
    assert.match(steps[0] ?? '', /^python3 -m venv/);
  }
  const both = await readManagedProject(
    await project({ 'pyproject.toml': POETRY_PROJECT, 'poetry.lock': '', 'uv.lock': '' }),
  );
  assert.equal(both?.manager, 'uv', 'a uv.lock wins: it is the lock uv keeps current');
});

test('Poetry groups and extras from their table headers', () => {
  assert.deepEqual(poetryGroups(POETRY_PROJECT), ['test', 'docs', 'dev']);
  assert.deepEqual(poetryGroups('[tool.poetry.group."type-check".dependencies]\nmypy = "*"\n'), ['type-check']);
  assert.deepEqual(poetryExtras(POETRY_PROJECT), ['testing', 'postgres']);
  assert.deepEqual(poetryExtras('[tool.poetry]\nname = "x"\n'), []);
});

test('the sandbox of a uv project: uv on PATH after the venv, its prefix read-only, offline and never syncing', async () => {
  const dir = await project({ 'pyproject.toml': UV_PROJECT, 'uv.lock': '' });
  const caches = cacheLayout(dir);
  const worktree = worktreeLayout(dir);
  const plan = await planDetected({ dir, caches, worktree, python: { python: 'python3', uv: false } });
  const sandbox = sandboxEnvironment({ plan, toolBins: [], toolPrefixes: [] });
  assert.deepEqual(sandbox.pathPrepend, [`${worktree.venv}/bin`, path.join(caches.tools, 'uv-0.13.9', 'bin')]);
  assert.ok(sandbox.readOnlyDirs.includes(path.join(caches.tools, 'uv-0.13.9')));
  assert.equal(sandbox.env['UV_PROJECT_ENVIRONMENT'], worktree.venv);
  for (const name of ['UV_OFFLINE', 'UV_FROZEN', 'UV_NO_SYNC']) assert.equal(sandbox.env[name], '1', name);

  const poetry = await project({ 'pyproject.toml': POETRY_PROJECT, 'poetry.lock': '' });
  const poetryPlan = await planDetected({ dir: poetry, caches, worktree, python: { python: 'python3', uv: false } });
  const poetrySandbox = sandboxEnvironment({ plan: poetryPlan, toolBins: [], toolPrefixes: [] });
  const exposed = path.join(caches.tools, 'poetry-2.5.1', 'exposed');
  assert.deepEqual(poetrySandbox.pathPrepend, [`${worktree.venv}/bin`, exposed], 'poetry alone, not its venv bin');
  assert.equal(poetrySandbox.env['POETRY_VIRTUALENVS_CREATE'], 'false');

  const pdm = await project({ 'pyproject.toml': '[project]\nname = "x"\n', 'pdm.lock': '' });
  const pdmPlan = await planDetected({ dir: pdm, caches, worktree, python: { python: 'python3', uv: false } });
  const pdmSandbox = sandboxEnvironment({ plan: pdmPlan, toolBins: [], toolPrefixes: [] });
  assert.deepEqual(pdmSandbox.pathPrepend, [`${worktree.venv}/bin`, path.join(caches.tools, 'pdm-2.29.4', 'exposed')]);
  assert.equal(pdmSandbox.env['PDM_IGNORE_SAVED_PYTHON'], '1');
});
