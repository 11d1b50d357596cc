/**
 * The Python plan of a project whose lockfile names every version (uv, Poetry, PDM): the
 * manager fetched (python-tool.ts), then one install from the lock into this worktree's
 * venv (outside the worktree, as for pip), the project itself included (editable from
 * the worktree) with its test extras and groups:
 *
 * - uv: `uv sync --frozen` (the lock as it is: never re-resolved, never rewritten) with
 *   `UV_PROJECT_ENVIRONMENT` naming the venv, which uv makes itself; its default `dev`
 *   group, and `--group` / `--extra` for the test ones. uv is then on the sandbox's PATH,
 *   told to stay offline and not to sync (python-ecosystem.ts), so `uv run pytest` or a
 *   Makefile that runs it works in the agent's offline sandbox.
 * - Poetry: `python -m venv` then `poetry install` with `VIRTUAL_ENV` naming it (Poetry
 *   installs into an active venv), `--with` its test groups (Poetry's own tables or PEP
 *   735 `[dependency-groups]`) and `-E` its test extras.
 * - PDM: the same venv, then `pdm sync --dev` (every dev group, `-G` the test extras).
 */
import type { CacheLayout } from '../../contracts/environment-dirs.js';
import { Ecosystem } from '../../contracts/environment.js';
import { q, type EcosystemStep } from './ecosystem.js';
import { PythonManager, type ManagedProject } from './python-manager.js';
import { FALLBACK_GROUP, TEST_EXTRAS, TEST_GROUPS, type PythonProject } from './python-project.js';
import { PYTHON_TOOL_VERSIONS, pythonToolStep } from './python-tool.js';

export interface LockedPythonPlan {
  readonly detected: readonly string[];
  readonly steps: readonly EcosystemStep[];
  /** The fetched manager, for the sandbox (`uv run`, `poetry run` in a Makefile). */
  readonly tool?: { readonly manager: PythonManager; readonly binDir: string; readonly prefix: string };
}

const norm = (name: string): string => name.toLowerCase().replace(/[-_.]+/g, '-');
const isTestGroup = (name: string): boolean => [...TEST_GROUPS, FALLBACK_GROUP].some((g) => g === norm(name));

export function lockedPythonPlan(options: {
  readonly managed: ManagedProject;
  readonly project: PythonProject;
  readonly venv: string;
  readonly python: string;
  readonly caches: CacheLayout;
}): LockedPythonPlan {
  const { managed, project, venv, caches } = options;
  const tool = pythonToolStep(managed.manager, options.python, caches, managed.uvVersion);
  const inputs = ['pyproject.toml', ...(managed.lockfile === undefined ? [] : [managed.lockfile])];
  const py = `${venv}/bin/python`;
  switch (managed.manager) {
    case PythonManager.Uv: {
      const groups = project.groups.filter((g) => norm(g) !== FALLBACK_GROUP);
      const flags = [
        ...(managed.lockfile === undefined ? [] : ['--frozen']),
        ...(managed.uvWorkspace === true ? ['--all-packages'] : []),
        ...groups.flatMap((g) => ['--group', q(g)]),
        ...project.extras.flatMap((e) => ['--extra', q(e)]),
      ];
      const sync = `UV_PROJECT_ENVIRONMENT=${q(venv)} ${q(tool.program)} sync ${flags.join(' ')}`.trimEnd();
      // Without a lock uv writes one: removed, or it would be in the agent's change.
      const command = managed.lockfile === undefined ? `${sync}; s=$?; rm -f uv.lock; exit $s` : sync;
      const what = [
        ...(managed.uvWorkspace ? ['every workspace member'] : []),
        `the dev group`,
        ...groups.map((g) => `group ${g}`),
        ...project.extras.map((e) => `extra ${e}`),
      ];
      const syncStep: EcosystemStep = {
        id: 'python-uv-sync',
        ecosystem: Ecosystem.Python,
        command,
        reason: `python: uv sync ${managed.lockfile ? 'the locked versions of uv.lock' : '(no uv.lock: resolved, the lock uv writes removed)'} into the venv ${venv}`,
        inputs,
        caches: [`uv cache ${caches.uv}`],
        produces: py,
      };
      return {
        detected: [
          `python: ${managed.why}: uv ${managed.uvVersion ?? `${PYTHON_TOOL_VERSIONS[PythonManager.Uv]}`}${managed.uvVersion ? ' ([tool.uv] required-version)' : ''} syncs the venv ${venv} for this worktree (${what.join(', ')}); uv is on the sandbox's PATH, offline`,
        ],
        steps: [tool.step, syncStep],
        tool: { manager: managed.manager, binDir: tool.binDir, prefix: tool.prefix },
      };
    }
    case PythonManager.Poetry: {
      // Poetry 2 installs PEP 735 [dependency-groups] too, named the same way.
      const declaredGroups = [...new Set([...managed.poetryGroups, ...project.declaredGroups])];
      const groups = declaredGroups.filter(isTestGroup);
      const declared = new Set([...managed.poetryExtras.map(norm), ...project.extras.map(norm)]);
      const extras = TEST_EXTRAS.filter((e) => declared.has(e));
      const flags = [
        '--no-interaction',
        ...(groups.length > 0 ? ['--with', q(groups.join(','))] : []),
        ...extras.flatMap((e) => ['-E', e]),
      ];
      const env = `VIRTUAL_ENV=${q(venv)} POETRY_VIRTUALENVS_IN_PROJECT=false POETRY_CACHE_DIR=${q(caches.poetry)}`;
      const others = declaredGroups.filter((g) => !groups.includes(g));
      return {
        detected: [
          `python: ${managed.why}: Poetry installs the locked versions into the venv ${venv} for this worktree; Poetry is on the sandbox's PATH ` +
            `(groups ${groups.join(', ') || 'none named test/tests/testing/dev'}${others.length > 0 ? `; ${others.join(', ')} only if not optional` : ''}${extras.length > 0 ? `; extras ${extras.join(', ')}` : ''})`,
        ],
        tool: { manager: managed.manager, binDir: tool.binDir, prefix: tool.prefix },
        steps: [
          tool.step,
          venvStep(options.python, venv),
          {
            id: 'python-poetry-install',
            ecosystem: Ecosystem.Python,
            command: `${env} ${q(tool.program)} install ${flags.join(' ')}`,
            reason: `python: poetry install the locked versions of poetry.lock into the venv ${venv}`,
            inputs,
            caches: [`Poetry cache ${caches.poetry}`],
            produces: py,
          },
        ],
      };
    }
    case PythonManager.Pdm: {
      // `pdm sync` installs the lock as written (never re-resolved) with every dev group
      // (PDM's default), into the venv VIRTUAL_ENV names; -G adds the test extras.
      const flags = ['--dev', ...project.extras.flatMap((e) => ['-G', q(e)])];
      const env = `VIRTUAL_ENV=${q(venv)} PDM_IGNORE_SAVED_PYTHON=1`;
      return {
        detected: [
          `python: ${managed.why}: PDM ${PYTHON_TOOL_VERSIONS[PythonManager.Pdm]} syncs the locked versions into the venv ${venv} for this worktree; PDM is on the sandbox's PATH ` +
            `(every dev group${project.extras.length > 0 ? `; extras ${project.extras.join(', ')}` : ''})`,
        ],
        tool: { manager: managed.manager, binDir: tool.binDir, prefix: tool.prefix },
        steps: [
          tool.step,
          venvStep(options.python, venv),
          {
            id: 'python-pdm-sync',
            ecosystem: Ecosystem.Python,
            command: `${env} ${q(tool.program)} sync ${flags.join(' ')}`,
            reason: `python: pdm sync the locked versions of pdm.lock into the venv ${venv}`,
            inputs,
            caches: [`PDM cache ${caches.pdm}`],
            produces: py,
          },
        ],
      };
    }
  }
}

function venvStep(python: string, venv: string): EcosystemStep {
  return {
    id: 'python-venv',
    ecosystem: Ecosystem.Python,
    command: `${q(python)} -m venv --without-pip ${q(venv)}`,
    reason: `python: create the virtualenv ${venv}`,
    inputs: [],
    caches: [],
    produces: `${venv}/bin/python`,
  };
}
