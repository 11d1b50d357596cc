/**
 * What the agent's sandbox gets from a prepared environment. Everything there runs
 * offline, so each ecosystem is pointed at what setup fetched and told not to fetch:
 * the venv (whole dir, pyvenv.cfg included, so `sys.prefix` is the venv) and its base
 * interpreter, read-only (a uv or Poetry project's manager too, on PATH: uv offline and
 * never syncing); each registry ecosystem's own view (Go's module cache read-only and a
 * GOCACHE of the worktree's own: go-ecosystem.ts; cargo's home: rust-ecosystem.ts; Maven's
 * local repository: maven-ecosystem.ts); fetched package managers' bins first on PATH.
 * Shared caches are never writable.
 */
import type { SandboxEnvironment } from '../../contracts/environment.js';
import type { CacheLayout } from './cache-layout.js';
import type { EnvironmentPlan } from './detect-setup.js';
import { PythonManager } from './python-manager.js';

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

export function sandboxEnvironment(options: {
  readonly plan: EnvironmentPlan;
  readonly caches: CacheLayout;
  readonly toolBins: readonly string[];
  readonly toolPrefixes: readonly string[];
  /** The base interpreter prefix (`sys.base_prefix`) of the plan's venv or a fetched Python application. */
  readonly pythonBase?: string;
  /** The environment setup ran with: a view may carry some of it over (Go's GOFLAGS). */
  readonly setupEnv?: Readonly<Record<string, string>>;
}): SandboxEnvironment {
  const { plan, caches } = options;
  const pathPrepend: string[] = [];
  const env: Record<string, string> = {};
  const readOnlyDirs: string[] = [...options.toolPrefixes];
  const writableDirs: string[] = [];
  if (plan.venv !== undefined) {
    pathPrepend.push(`${plan.venv}/bin`);
    env['VIRTUAL_ENV'] = plan.venv;
    readOnlyDirs.push(plan.venv);
  }
  // A fetched Python application's venvs (nox's) link to the same base interpreter.
  if (options.pythonBase !== undefined) readOnlyDirs.push(options.pythonBase);
  if (plan.pythonTool !== undefined && plan.venv !== undefined) {
    // `uv run …`, `poetry run …` (a Makefile's test target) run in the venv setup installed.
    pathPrepend.push(plan.pythonTool.binDir);
    readOnlyDirs.push(plan.pythonTool.prefix);
    Object.assign(env, managerEnv(plan.pythonTool.manager, plan.venv));
  }
  pathPrepend.push(...options.toolBins);
  for (const view of plan.sandboxViews) {
    Object.assign(env, view.env);
    for (const name of view.fromSetupEnv ?? []) if (options.setupEnv?.[name]) env[name] = options.setupEnv[name];
    readOnlyDirs.push(...view.readOnlyDirs);
    writableDirs.push(...(view.writableDirs ?? []));
  }
  if (plan.steps.some((s) => s.ecosystem === 'yarn')) {
    Object.assign(env, { YARN_GLOBAL_FOLDER: caches.yarnBerry, YARN_ENABLE_OFFLINE_MODE: '1' });
    readOnlyDirs.push(caches.yarnBerry);
  }
  return { pathPrepend, env, readOnlyDirs, writableDirs };
}
