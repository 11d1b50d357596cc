/**
 * What the agent's sandbox gets from a prepared environment. Everything there runs
 * offline, so each ecosystem is pointed at what setup fetched and told not to fetch:
 * each ecosystem's own view (Python's venv and its manager, offline: python-ecosystem.ts;
 * Go's module cache read-only and a GOCACHE of the worktree's own: go-ecosystem.ts;
 * cargo's home: rust-ecosystem.ts; Maven's local repository: maven-ecosystem.ts; yarn's
 * cache: node-ecosystem.ts), the base interpreter a venv links to, read-only, and fetched
 * package managers' and Python applications' bins on PATH after the views' own.
 * Shared caches are never writable.
 */
import type { SandboxEnvironment } from '../../contracts/environment.js';
import type { EnvironmentPlan } from './detect-setup.js';

export function sandboxEnvironment(options: {
  readonly plan: EnvironmentPlan;
  readonly toolBins: readonly string[];
  readonly toolPrefixes: readonly string[];
  /** The base interpreter prefix (`sys.base_prefix`) of the plan's venv or a fetched Python application. */
  readonly pythonBase?: string;
  /** The environment setup ran with: a view may carry some of it over (Go's GOFLAGS). */
  readonly setupEnv?: Readonly<Record<string, string>>;
}): SandboxEnvironment {
  const { plan } = options;
  const pathPrepend: string[] = [];
  const env: Record<string, string> = {};
  const readOnlyDirs: string[] = [...options.toolPrefixes];
  const writableDirs: string[] = [];
  const validators = { env: {} as Record<string, string>, writableDirs: [] as string[] };
  // A venv, or a fetched Python application's venvs (nox's), link to their base interpreter.
  if (options.pythonBase !== undefined) readOnlyDirs.push(options.pythonBase);
  for (const view of plan.sandboxViews) {
    pathPrepend.push(...(view.pathPrepend ?? []));
    Object.assign(env, view.env);
    for (const name of view.fromSetupEnv ?? []) if (options.setupEnv?.[name]) env[name] = options.setupEnv[name];
    readOnlyDirs.push(...view.readOnlyDirs);
    writableDirs.push(...(view.writableDirs ?? []));
    Object.assign(validators.env, view.validators?.env);
    validators.writableDirs.push(...(view.validators?.writableDirs ?? []));
  }
  pathPrepend.push(...options.toolBins);
  const own = validators.writableDirs.length > 0 || Object.keys(validators.env).length > 0;
  return { pathPrepend, env, readOnlyDirs, writableDirs, ...(own ? { validators } : {}) };
}
