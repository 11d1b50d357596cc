/**
 * A nox-only Python project: `noxfile.py` and no other Python project file. Its sessions
 * are code that only nox can evaluate, so nox itself is used: setup runs the test
 * session's installs with the network (`nox --install-only`), and the test command reuses
 * the venvs it made without installing (`nox -R`: `--reuse-existing-virtualenvs
 * --no-install`), which runs offline in the sandbox. The venvs are the session's own, in
 * `.nox/` of the worktree (the project's .gitignore should name it). The test session is
 * the first of `tests`, `test`, `pytest`, `unit` the noxfile defines; pytest's failures
 * are named as for any Python project. A project with other Python files keeps the
 * Python plan (python-ecosystem.ts), and noxfile.py is not read there.
 */
import { Ecosystem } from '../../contracts/environment.js';
import { Remedy } from './could-not-run-sign.js';
import { EcosystemId, readRepoFile as read, type EcosystemModule } from './ecosystem.js';

/** The version the tests run, fetched from PyPI like PDM and Poetry (`<tools>/nox-<version>`). */
export const NOX_VERSION = '2026.10.20';

const TEST_SESSIONS = ['tests', 'test', 'pytest', 'unit'] as const;

/** Files that make the project a Python project of the regular plan (python-project.ts). */
const OTHER_PYTHON_FILES = ['pyproject.toml', 'setup.cfg', 'setup.py', 'tox.ini', 'pytest.ini', 'requirements.txt'];

/** The session names a noxfile defines: `@nox.session` functions, or their `name=`. */
export function noxSessions(noxfile: string): string[] {
  const decorated = /@(?:nox\.)?session\b(\([^)]*\))?[^\n]*\n(?:[ \t]*@[^\n]*\n)*[ \t]*(?:async[ \t]+)?def[ \t]+(\w+)/g;
  return [...noxfile.matchAll(decorated)].map(
    (m) => /\bname\s*=\s*["']([^"']+)["']/.exec(m[1] ?? '')?.[1] ?? m[2] ?? '',
  );
}

/** The session to test with, when the project is nox-only and defines one. */
export async function noxTestSession(dir: string): Promise<string | undefined> {
  const noxfile = await read(dir, 'noxfile.py');
  if (noxfile === undefined) return undefined;
  for (const file of OTHER_PYTHON_FILES) if ((await read(dir, file)) !== undefined) return undefined;
  const sessions = noxSessions(noxfile);
  return TEST_SESSIONS.find((name) => sessions.includes(name));
}

export const NOX_ECOSYSTEM: EcosystemModule = {
  id: EcosystemId.Nox,
  docPage: 'python-nox.md',
  setupInputs: ['noxfile.py'],
  testCommand: async (dir) => {
    const session = await noxTestSession(dir);
    if (session === undefined) return undefined;
    const test = `nox -R -s ${session}`;
    return {
      commands: { test },
      reasons: [`test: ${test} (noxfile.py session "${session}", reusing the venvs setup made, offline)`],
    };
  },
  setup: async (dir) => {
    const session = await noxTestSession(dir);
    if (session === undefined) return undefined;
    const command = `nox --install-only -s ${session}`;
    return {
      detected: `nox: ${command} (noxfile.py session "${session}"; nox ${NOX_VERSION} from PyPI, its venvs in .nox/)`,
      ecosystem: Ecosystem.Python,
      cacheOwner: EcosystemId.Python,
      pythonApp: { name: 'nox', version: NOX_VERSION },
      steps: [{ id: 'nox-install', command, reason: `nox: ${command} (noxfile.py)`, inputs: ['noxfile.py'] }],
    };
  },
  couldNotRun: [
    { match: /^nox > Sessions not found: /, seen: 'nox has no such session', remedy: Remedy.OtherCommand },
    {
      match: /^nox > Session \S+ (?:skipped|failed): Python interpreter \S+ not found/,
      seen: 'nox: the Python its session asks for is not installed',
      remedy: Remedy.Install,
    },
  ],
  unrecoverable: [
    { match: /^nox > Sessions not found: /m, reason: 'nox has no such session; fix the validator command' },
    {
      match: /^nox > Session \S+ (?:skipped|failed): Python interpreter \S+ not found/m,
      reason: 'the Python the nox session asks for is not installed; install it or fix the validator command',
    },
  ],
};
