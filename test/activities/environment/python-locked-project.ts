/**
 * The locked Python projects of the environment tests (uv, Poetry): a `calc` package whose
 * `sub` adds (its test fails: the planted bug), iniconfig as the one dependency, locked by
 * the manager itself at test time at 2.0.0 while pyproject asks for any version (a fresh
 * resolution would take the newest), and pytest as a dev dependency. The manager used to
 * lock is fetched into the test's state dir, apart from the tools dir setup fills.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import type { TempGitRepo } from '../../helpers/temp-git-repo.js';

/** The older iniconfig the lock pins (newer ones exist on PyPI). */
export const LOCKED_INICONFIG = '2.0.0';

/** The index's simple API (PIP_INDEX_URL when set). */
export const PYPI_SIMPLE = (process.env['PIP_INDEX_URL'] ?? 'https://pypi.org/simple').replace(/\/$/, '');
const reachable = await fetch(`${PYPI_SIMPLE}/iniconfig/`, { signal: AbortSignal.timeout(15_000) }).then(
  (r) => r.ok,
  () => false,
);
/** `{ skip }` for tests that need PyPI. */
export const skipWithoutPypi: string | false = reachable ? false : `PyPI (${PYPI_SIMPLE}) is not reachable`;

export const CALC_SOURCES: Record<string, string> = {
  '.gitignore': '__pycache__/\n.venv/\n',
  'src/calc/__init__.py': 'def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a + b\n',
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

/** `manager==version` installed with pip into `<state dir>/lock-tools/<manager>`; the program's path. */
export async function lockTool(manager: 'uv' | 'poetry' | 'pdm', version: string): Promise<string> {
  const dir = path.join(process.env['ISSUE_AGENT_STATE_DIR'] ?? '/nonexistent', 'lock-tools', manager);
  await execa('python3', ['-m', 'venv', dir]);
  // PDM 2.29 does not cap hishel, whose 2.0 dropped the module PDM imports (as python-tool.ts).
  const extra = manager === 'pdm' ? ['hishel<2'] : [];
  await execa(path.join(dir, 'bin', 'python'), ['-m', 'pip', 'install', '--quiet', `${manager}==${version}`, ...extra]);
  return path.join(dir, 'bin', manager);
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
): Promise<void> {
  const state = process.env['ISSUE_AGENT_STATE_DIR'] ?? repo.dir;
  const env = {
    UV_CACHE_DIR: path.join(state, 'lock-cache', 'uv'),
    POETRY_CACHE_DIR: path.join(state, 'lock-cache', 'poetry'),
    PDM_CACHE_DIR: path.join(state, 'lock-cache', 'pdm'),
    PDM_CHECK_UPDATE: 'false',
    HOME: path.join(state, 'lock-home'),
  };
  await lock(env);
  await writeFile(path.join(repo.dir, 'pyproject.toml'), relaxed);
  await lock(env);
}
