/**
 * The Python projects of the environment tests and the fresh-clone e2e: a `calc` package
 * whose `sub` adds (its test fails: the planted bug), iniconfig as the one dependency at
 * 2.0.0 (newer ones exist on PyPI) and pytest, made up as each manager's users write them:
 *   - locked (uv, Poetry, PDM): the lock is made by the manager itself at test time while
 *     pyproject pins iniconfig, then pyproject asks for any version (a fresh resolution
 *     would take the newest); the manager used to lock is installed once for every test file
 *     and suite (`lockTool`), apart from the tools dir setup fills;
 *   - Hatch: the test tools only in `[tool.hatch.envs.test]`, no lock;
 *   - tox only: no pyproject, the deps only in tox.ini `[testenv]` (one through `-r`).
 * `detectAndPrepare` and `assertLockedOffline` are the steps they share: offline in the sandbox the venv has the
 * pinned iniconfig and the preflight keeps the failing test as the baseline by name.
 */
import assert from 'node:assert/strict';
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { PYTHON_TOOL_VERSIONS } from '../../../src/definition/ecosystems/python-tool.js';
import { PROJECT_ROOT } from '../../../src/host/project-root.js';
import { PreflightStatus } from '../../../src/contracts/preflight.js';
import type { EnvironmentReport } from '../../../src/contracts/environment.js';
import { detectCommands } from '../../../src/definition/repo-config/detect-commands.js';
import type { TempGitRepo } from '../../helpers/temp-git-repo.js';
import { assertPassesInSandbox, type EnvironmentSuite } from './environment-fixtures.js';
import { mavenPreflight } from './maven-project.js';

/** The older iniconfig the projects pin (newer ones exist on PyPI). */
export const LOCKED_INICONFIG = '2.0.0';

/** The index's simple API (PIP_INDEX_URL when set). */
export const PYPI_SIMPLE = (process.env['PIP_INDEX_URL'] ?? 'https://pypi.org/simple').replace(/\/$/, '');
const reachable = await fetch(`${PYPI_SIMPLE}/iniconfig/`, { signal: AbortSignal.timeout(15_000) }).then(
  (r) => r.ok,
  () => false,
);
/** `{ skip }` for tests that need PyPI. */
export const skipWithoutPypi: string | false = reachable ? false : `PyPI (${PYPI_SIMPLE}) is not reachable`;

/** The planted bug in `src/calc/__init__.py` (and its fix): `sub` adds. */
export const CALC_BUG = { old: 'def sub(a, b):\n    return a + b', new: 'def sub(a, b):\n    return a - b' };
/** The test the bug makes fail, by its pytest node id. */
export const FAILING_TEST = 'tests/test_calc.py::test_subtracts';

export const CALC_SOURCES: Record<string, string> = {
  '.gitignore': '__pycache__/\n.venv/\n',
  'src/calc/__init__.py': `def add(a, b):\n    return a + b\n\n\n${CALC_BUG.old}\n`,
  'tests/test_calc.py': [
    'import iniconfig',
    '',
    'from calc import add, sub',
    '',
    '',
    'def test_adds():',
    '    assert add(2, 3) == 5',
    '',
    '',
    'def test_subtracts():',
    '    assert sub(3, 2) == 1',
    '',
  ].join('\n'),
};

/** Prints the iniconfig version the venv has. */
export const INICONFIG_VERSION = `python -c "import importlib.metadata as m; print('iniconfig=' + m.version('iniconfig'))"`;

const stateDir = (): string => process.env['ISSUE_AGENT_STATE_DIR'] ?? '/nonexistent';

/**
 * Where the lock tools are kept, as the suite's bundles are (node_modules/.cache): they only
 * write the fixtures' lockfiles, never what a test checks, so one install of each
 * `manager==version` serves every test file of every suite (each file used to install its own:
 * 10-20 s of PyPI downloads and pip each time). Under the real node_modules, not through the
 * compiled test tree's link to it: a venv's scripts name the path it was built at, and the
 * tree is removed when its run ends.
 */
const LOCK_TOOLS = path.join(realpathSync(path.join(PROJECT_ROOT, 'node_modules')), '.cache', 'issue-agent-lock-tools');

/**
 * `manager==version` installed with pip into a venv of its own; the program's path. The venv
 * is built at a path of its own and published by a symlink (created atomically; never
 * moved: a venv's scripts name their own path), so two test files installing at once both
 * finish and the first link wins. Keyed by the python3 it was made with, too.
 */
export async function lockTool(manager: LockingManager, version: string): Promise<string> {
  const python = (await execa('python3', ['--version'])).stdout.trim().replace(/\s+/g, '');
  const link = path.join(LOCK_TOOLS, `${manager}-${version}-${python}`);
  const program = path.join(link, 'bin', manager);
  if (existsSync(program)) return program;
  await mkdir(LOCK_TOOLS, { recursive: true });
  const dir = await mkdtemp(`${link}.build-`);
  await execa('python3', ['-m', 'venv', dir]);
  // PDM 2.29 does not cap hishel, whose 2.0 dropped the module PDM imports (as python-tool.ts).
  const extra = manager === 'pdm' ? ['hishel<2'] : [];
  await execa(path.join(dir, 'bin', 'python'), ['-m', 'pip', 'install', '--quiet', `${manager}==${version}`, ...extra]);
  try {
    await symlink(path.basename(dir), link);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    await rm(dir, { recursive: true, force: true });
  }
  return program;
}

/**
 * Locks `repo` with `lock` while pyproject.toml pins iniconfig 2.0.0, then again with
 * `relaxed` (any version) in its place: the manager keeps the locked version, and the
 * lock stays consistent with the manifest.
 */
export async function lockAtOlderVersion(
  repo: TempGitRepo,
  relaxed: string,
  lock: (env: Record<string, string>) => Promise<unknown>,
  workDir = stateDir(),
): Promise<void> {
  const env = {
    UV_CACHE_DIR: path.join(workDir, 'lock-cache', 'uv'),
    POETRY_CACHE_DIR: path.join(workDir, 'lock-cache', 'poetry'),
    PDM_CACHE_DIR: path.join(workDir, 'lock-cache', 'pdm'),
    PDM_CHECK_UPDATE: 'false',
    HOME: path.join(workDir, 'lock-home'),
  };
  await lock(env);
  await writeFile(path.join(repo.dir, 'pyproject.toml'), relaxed);
  await lock(env);
}

export type LockingManager = 'uv' | 'poetry' | 'pdm';

/** pyproject.toml of `manager`'s project, iniconfig pinned or not. */
function lockedPyproject(manager: LockingManager, pinned: boolean): string {
  const requirement = pinned ? `iniconfig==${LOCKED_INICONFIG}` : 'iniconfig';
  const project = ['[project]', 'name = "calc"', 'version = "0.1.0"', 'requires-python = ">=3.9"'];
  const tables: Record<LockingManager, string[]> = {
    uv: [...project, `dependencies = ["${requirement}"]`, '', '[dependency-groups]', 'dev = ["pytest"]'],
    pdm: [
      ...project,
      `dependencies = ["${requirement}"]`,
      '',
      '[tool.pdm]',
      'distribution = true',
      '',
      '[tool.pdm.dev-dependencies]',
      'test = ["pytest"]',
    ],
    poetry: [
      '[tool.poetry]',
      'name = "calc"',
      'version = "0.1.0"',
      'description = ""',
      'authors = ["Demo <demo@example.com>"]',
      'packages = [{ include = "calc", from = "src" }]',
      '',
      '[tool.poetry.dependencies]',
      'python = ">=3.9"',
      `iniconfig = "${pinned ? LOCKED_INICONFIG : '*'}"`,
      '',
      '[tool.poetry.group.dev.dependencies]',
      'pytest = "*"',
      '',
      // Poetry reads PyPI through its JSON API, which a mirror may not serve: the simple API.
      '[[tool.poetry.source]]',
      'name = "index"',
      `url = "${PYPI_SIMPLE}/"`,
      'priority = "primary"',
    ],
  };
  const backend: Record<LockingManager, readonly [string, string]> = {
    uv: ['hatchling', 'hatchling.build'],
    pdm: ['pdm-backend', 'pdm.backend'],
    poetry: ['poetry-core>=1.0.0', 'poetry.core.masonry.api'],
  };
  const [requires, buildBackend] = backend[manager];
  return [
    ...tables[manager],
    '',
    '[build-system]',
    `requires = ["${requires}"]`,
    `build-backend = "${buildBackend}"`,
    '',
  ].join('\n');
}

const LOCK_ARGS: Record<LockingManager, readonly string[]> = {
  uv: ['lock', '--quiet'],
  poetry: ['lock', '--no-interaction'],
  pdm: ['lock', '--update-reuse', '--quiet'],
};

/** The only test entry of the uv and Poetry projects: a Makefile running pytest through the manager. */
const MAKEFILE: Partial<Record<LockingManager, string>> = {
  uv: 'test:\n\tuv run pytest\n',
  poetry: 'test:\n\tpoetry run pytest\n',
};

export interface LockedProject {
  readonly files: Record<string, string>;
  /** Writes the lock into the origin `repo` (nothing without PyPI); tools and caches go under `workDir`. */
  lock(repo: TempGitRepo, workDir?: string): Promise<void>;
}

/** The locked project of `manager`: its files, and the lock its users would commit. */
export function lockedPythonProject(manager: LockingManager): LockedProject {
  const makefile = MAKEFILE[manager];
  return {
    files: {
      ...CALC_SOURCES,
      'pyproject.toml': lockedPyproject(manager, true),
      ...(makefile === undefined ? {} : { Makefile: makefile }),
    },
    async lock(repo, workDir = stateDir()) {
      if (skipWithoutPypi !== false) return;
      const tool = await lockTool(manager, PYTHON_TOOL_VERSIONS[manager]);
      await lockAtOlderVersion(
        repo,
        lockedPyproject(manager, false),
        async (lockEnv) => {
          await execa(tool, LOCK_ARGS[manager], {
            cwd: repo.dir,
            env: { ...lockEnv, ...(manager === 'pdm' ? { PDM_PYPI_URL: PYPI_SIMPLE } : {}) },
          });
          // PDM's lock saves the interpreter it chose and may make a .venv: not the project's.
          for (const made of ['.pdm-python', '.venv'])
            await rm(path.join(repo.dir, made), { recursive: true, force: true });
        },
        workDir,
      );
    },
  };
}

/** A Hatch project: pytest and the pinned iniconfig only in `[tool.hatch.envs.test]`, its script the test. */
export const HATCH_PROJECT: Record<string, string> = {
  ...CALC_SOURCES,
  'pyproject.toml': [
    '[build-system]',
    'requires = ["hatchling"]',
    'build-backend = "hatchling.build"',
    '',
    '[project]',
    'name = "calc"',
    'version = "0.1.0"',
    'requires-python = ">=3.9"',
    '',
    '[tool.hatch.envs.test]',
    `dependencies = ["pytest", "iniconfig==${LOCKED_INICONFIG}"]`,
    '',
    '[tool.hatch.envs.test.scripts]',
    'test = "pytest -q {args:tests}"',
    '',
  ].join('\n'),
};

/** A tox-only project: the deps only in `[testenv]` (iniconfig through `-r ci/test-deps.txt`), calc.py at the root. */
export const TOX_PROJECT: Record<string, string> = {
  '.gitignore': '__pycache__/\n',
  'calc.py': CALC_SOURCES['src/calc/__init__.py'] ?? '',
  'tests/test_calc.py': CALC_SOURCES['tests/test_calc.py'] ?? '',
  'ci/test-deps.txt': `iniconfig==${LOCKED_INICONFIG}\n`,
  'tox.ini': [
    '[tox]',
    'envlist = py3',
    '',
    '[testenv]',
    'skip_install = true',
    'deps =',
    '    pytest',
    '    -r{toxinidir}/ci/test-deps.txt',
    'commands =',
    '    python -m pytest -q {posargs:tests}',
    '',
  ].join('\n'),
};

/**
 * A fresh worktree of the suite's project, its test command detected (asserted to be
 * `testCommand`), and the environment phase run on it (its detected lines asserted to
 * match `detected`).
 */
export async function detectAndPrepare(
  env: EnvironmentSuite,
  testCommand: string,
  detected: RegExp,
): Promise<{ wt: string; reasons: readonly string[]; report: EnvironmentReport }> {
  const wt = await env.project.worktree();
  const { commands, reasons } = await detectCommands(wt);
  assert.equal(commands.test, testCommand);
  const report = await env.prepare(wt);
  assert.match(report.detected.join('\n'), detected);
  return { wt, reasons, report };
}

/** Offline in the sandbox the venv has the pinned iniconfig, and the preflight of `testCommand` names the failing test. */
export async function assertLockedOffline(worktree: string, testCommand: string): Promise<void> {
  await assertPassesInSandbox(worktree, INICONFIG_VERSION, new RegExp(`^iniconfig=${LOCKED_INICONFIG}$`, 'm'));
  const check = (await mavenPreflight(worktree, testCommand)).checks[0];
  assert.equal(check?.status, PreflightStatus.Baseline, check?.summary);
  assert.deepEqual(check?.failedTests, [FAILING_TEST]);
}
