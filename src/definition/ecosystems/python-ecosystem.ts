/**
 * Python (pip, uv, Poetry, PDM, Hatch, tox): a Hatch env's test script or tox.ini's pytest
 * line, run without Hatch or tox in the venv setup made (repo-config/hatch-test-env.ts,
 * tox-test-env.ts), else `pytest` when the project has Python test config. Its setup
 * (python-setup.ts) makes a venv for the worktree, outside it, and installs the project
 * there (from its lock with uv, Poetry or PDM: python-locked-setup.ts); the sandbox gets
 * the venv first on PATH and read-only (its base interpreter too), and a locked project's
 * manager on PATH after it, told to stay offline and never to sync or make another venv.
 */
import { hatchTestEnv } from '../repo-config/hatch-test-env.js';
import { toxTestEnv } from '../repo-config/tox-test-env.js';
import { Ecosystem } from '../../contracts/environment.js';
import {
  EcosystemId,
  readRepoFile as read,
  type DetectedCommands,
  type EcosystemModule,
  type SandboxView,
} from './ecosystem.js';
import { Remedy } from './could-not-run-sign.js';
import { PythonManager } from './python-manager.js';
import { detectPython, type PythonPlan } from './python-setup.js';
import { PYTEST } from './test-runners/pytest.js';

/** uv in the sandbox: the venv setup synced is used as it is (no sync, no download, no cache write). */
export const UV_OFFLINE_ENV = {
  UV_OFFLINE: '1',
  UV_FROZEN: '1',
  UV_NO_SYNC: '1',
  UV_PYTHON_DOWNLOADS: 'never',
  UV_NO_CACHE: '1',
} as const;

function managerEnv(manager: PythonManager, venv: string): Record<string, string> {
  switch (manager) {
    case PythonManager.Uv:
      return { ...UV_OFFLINE_ENV, UV_PROJECT_ENVIRONMENT: venv };
    case PythonManager.Poetry:
      // Poetry uses the venv VIRTUAL_ENV names; it must never try to make another.
      return { POETRY_VIRTUALENVS_CREATE: 'false', POETRY_NO_INTERACTION: '1' };
    case PythonManager.Pdm:
      // PDM uses the venv VIRTUAL_ENV names, not an interpreter a committed .pdm-python names.
      return { PDM_IGNORE_SAVED_PYTHON: '1', PDM_CHECK_UPDATE: 'false' };
  }
}

/** The venv, and `uv run …`, `poetry run …` (a Makefile's test target) running in it. */
function pythonView({ venv, tool }: PythonPlan): SandboxView {
  return {
    pathPrepend: [`${venv}/bin`, ...(tool === undefined ? [] : [tool.binDir])],
    env: { VIRTUAL_ENV: venv, ...(tool === undefined ? {} : managerEnv(tool.manager, venv)) },
    readOnlyDirs: [venv, ...(tool === undefined ? [] : [tool.prefix])],
  };
}

async function pythonCommands(dir: string): Promise<DetectedCommands | undefined> {
  const hatch = hatchTestEnv((await read(dir, 'pyproject.toml')) ?? '');
  if (hatch?.script !== undefined)
    return {
      commands: { test: hatch.script.command },
      reasons: [
        `test: ${hatch.script.command} (pyproject [tool.hatch.envs.${hatch.env}.scripts] ${hatch.script.name} = "${hatch.script.written}", run without Hatch, in the venv setup made)`,
      ],
    };
  const tox = toxTestEnv((await read(dir, 'tox.ini')) ?? '')?.command;
  if (tox !== undefined)
    return {
      commands: { test: tox.command },
      reasons: [
        `test: ${tox.command} (tox.ini [testenv] commands: ${tox.written}, run without tox, in the venv setup made)`,
      ],
    };
  for (const file of ['pytest.ini', 'pyproject.toml', 'setup.cfg', 'tox.ini', 'setup.py']) {
    if ((await read(dir, file)) !== undefined)
      return { commands: { test: 'pytest' }, reasons: [`test: pytest (${file})`] };
  }
  return undefined;
}

export const PYTHON_ECOSYSTEM: EcosystemModule = {
  id: EcosystemId.Python,
  docPage: 'python.md',
  setupInputs: ['pyproject.toml', 'setup.cfg', 'setup.py', 'requirements.txt', 'uv.lock', 'poetry.lock', 'pdm.lock'],
  setupEnv: (caches) => ({
    PIP_CACHE_DIR: caches.pip,
    PIP_DISABLE_PIP_VERSION_CHECK: '1',
    UV_CACHE_DIR: caches.uv,
    // uv hardlinks from its cache by default: the agent could then write into the cache.
    UV_LINK_MODE: 'copy',
    POETRY_CACHE_DIR: caches.poetry,
    PDM_CACHE_DIR: caches.pdm,
    PDM_CHECK_UPDATE: 'false',
  }),
  registryPointers: ['PIP_INDEX_URL', 'PIP_EXTRA_INDEX_URL', 'UV_INDEX_URL', 'UV_DEFAULT_INDEX', 'UV_EXTRA_INDEX_URL'],
  homeToolchains: [['PYENV_ROOT', '.pyenv']],
  testCommand: pythonCommands,
  setup: async (dir, caches, worktree, python) => {
    const plan = await detectPython({ dir, venv: worktree.venv, caches, tools: python });
    if (plan === undefined) return undefined;
    return {
      detected: plan.detected,
      ecosystem: Ecosystem.Python,
      steps: plan.steps,
      interpreter: `${plan.venv}/bin/python`,
      sandbox: pythonView(plan),
    };
  },
  couldNotRun: [
    {
      match: /could not find python interpreter matching/,
      seen: 'tox: the Python its environment asks for is not installed',
      remedy: Remedy.Install,
    },
  ],
  unrecoverable: [
    // `python -m pytest` without pytest: `/usr/bin/python3: No module named pytest` (the runner itself).
    {
      match: /^\S*python[\d.]*(?:\.exe)?: No module named [\w.]+\s*$/m,
      reason: 'the test runner is not installed in this Python; install it or fix the validator command',
    },
    // pytest without the plugin an option needs (`--cov` without pytest-cov).
    {
      match: /^(?:\S*pytest|python[\d.]* -m pytest): error: unrecognized arguments: /m,
      reason:
        'the test runner rejects its arguments (a plugin not installed?); install it or fix the validator command',
    },
  ],
  testRunners: [PYTEST],
  buildOutputs: {
    markers: ['pyproject.toml', 'setup.cfg', 'setup.py', 'requirements.txt', 'tox.ini', 'noxfile.py'],
    patterns: [
      // Python 3 writes bytecode only there; a stray `*.pyc` elsewhere stays visible to the checks.
      { pattern: '__pycache__/', probe: '__pycache__/' },
      { pattern: '/.pytest_cache/', probe: '.pytest_cache/' },
    ],
  },
};
