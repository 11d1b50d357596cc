/**
 * What a Python project declares, read without a TOML parser (only what the plan needs):
 * whether it is installable (pyproject `[project]`/`[build-system]`, setup.cfg
 * `[metadata]`, setup.py), its optional-dependency groups (pyproject
 * `[project.optional-dependencies]` in any spelling, setup.cfg `[options.extras_require]`),
 * its PEP 735 test dependency group, its requirements files (root and the usual test/dev
 * ones in `requirements/`), and whether its tests use pytest without declaring it.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { hatchTestEnv, type HatchTestEnv } from '../repo-config/hatch-test-env.js';
import { toxTestEnv, type ToxTestEnv } from '../repo-config/tox-test-env.js';
import { dependencyGroups, optionalDependencies, type GroupEntry } from './pyproject-tables.js';

export const TEST_EXTRAS = ['test', 'tests', 'testing', 'dev'] as const;
/** Dependency groups installed when present; `dev` only when none is (it tends to be lint/tox tooling). */
export const TEST_GROUPS = ['test', 'tests', 'testing'] as const;
export const FALLBACK_GROUP = 'dev';

export interface PythonProject {
  /** The files that made it a Python project (for the reason line and the step's inputs). */
  readonly files: readonly string[];
  readonly installable: boolean;
  /** Test extras the project declares, among TEST_EXTRAS, and those its Hatch test env names. */
  readonly extras: readonly string[];
  readonly requirements: readonly string[];
  /** The `[dependency-groups]` chosen (names as written), and all the project declares. */
  readonly groups: readonly string[];
  readonly declaredGroups: readonly string[];
  /** The chosen groups' requirement strings, includes resolved, markers kept (for pip). */
  readonly groupRequirements: readonly string[];
  readonly usesPytest: boolean;
  readonly declaresPytest: boolean;
  /** A Hatch project's test env: its dependencies go into the venv, its features are extras. */
  readonly hatch?: HatchTestEnv;
  /** tox.ini `[testenv]`: its deps go into the venv (tox itself is not run). */
  readonly tox?: ToxTestEnv;
}

async function read(dir: string, file: string): Promise<string | undefined> {
  return readFile(path.join(dir, file), 'utf8').catch(() => undefined);
}

/** The body of an INI/TOML section: from its header to the next header. */
export function section(text: string, header: string): string | undefined {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.trim() === `[${header}]`);
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && /^\s*\[/.test(l));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** Keys at the start of a line (`test = [`, `test =`), in order. */
function keysOf(body: string | undefined): string[] {
  if (body === undefined) return [];
  return [...body.matchAll(/^\s*["']?([A-Za-z0-9_.-]+)["']?\s*=/gm)].map((m) => (m[1] ?? '').toLowerCase());
}

/** PEP 735 / PEP 503 name normalisation. */
const norm = (name: string): string => name.toLowerCase().replace(/[-_.]+/g, '-');

/** A group's requirement strings with `{include-group}` resolved (a cycle or unknown name adds nothing). */
export function resolveGroup(
  groups: ReadonlyMap<string, readonly GroupEntry[]>,
  name: string,
  seen = new Set<string>(),
): string[] {
  const key = [...groups.keys()].find((k) => norm(k) === norm(name));
  if (key === undefined || seen.has(norm(key))) return [];
  seen.add(norm(key));
  return (groups.get(key) ?? []).flatMap((e) =>
    typeof e === 'string' ? [e] : resolveGroup(groups, e.includeGroup, seen),
  );
}

/** The test groups a project declares, else its `dev` group. */
export function chooseGroups(declared: readonly string[]): string[] {
  const tests = declared.filter((g) => (TEST_GROUPS as readonly string[]).includes(norm(g)));
  return tests.length > 0 ? tests : declared.filter((g) => norm(g) === FALLBACK_GROUP);
}

/** Worktree-relative requirements files: every root `requirements*.txt` and the usual test/dev ones. */
async function requirementFiles(dir: string): Promise<string[]> {
  const top = await readdir(dir).catch(() => [] as string[]);
  const sub = await readdir(path.join(dir, 'requirements')).catch(() => [] as string[]);
  return [
    ...top.filter((f) => /^requirements.*\.txt$|^(test|dev)[-_]requirements\.txt$/.test(f)).sort(),
    ...sub
      .filter((f) => /^(tests?|testing|dev)([-_.].*)?\.txt$/.test(f))
      .sort()
      .map((f) => `requirements/${f}`),
  ];
}

const PYTEST = /(^|[\s"'[,])pytest\s*([<>=!~;[\]"',]|$)/m;

async function hasTestFiles(dir: string): Promise<boolean> {
  for (const sub of ['tests', 'test']) {
    const entries = await readdir(path.join(dir, sub)).catch(() => [] as string[]);
    if (entries.some((e) => /^test_.*\.py$|_test\.py$|^conftest\.py$/.test(e))) return true;
  }
  const top = await readdir(dir).catch(() => [] as string[]);
  return top.some((e) => /^test_.*\.py$|^conftest\.py$/.test(e));
}

export async function readPythonProject(dir: string): Promise<PythonProject | undefined> {
  const pyproject = await read(dir, 'pyproject.toml');
  const setupCfg = await read(dir, 'setup.cfg');
  const setupPy = await read(dir, 'setup.py');
  const requirements = await requirementFiles(dir);
  const toxIni = await read(dir, 'tox.ini');
  const tox = toxTestEnv(toxIni ?? '');
  const files = [
    ...(pyproject === undefined ? [] : ['pyproject.toml']),
    ...(setupCfg === undefined ? [] : ['setup.cfg']),
    ...(setupPy === undefined ? [] : ['setup.py']),
    ...requirements,
    ...(tox === undefined ? [] : ['tox.ini']),
  ];
  if (files.length === 0) return undefined;
  const installable =
    setupPy !== undefined ||
    (setupCfg !== undefined && section(setupCfg, 'metadata') !== undefined) ||
    (pyproject !== undefined && /^\s*\[(project|build-system|tool\.poetry)\]/m.test(pyproject));
  const pyExtras = optionalDependencies(pyproject ?? '');
  const cfgExtras = setupCfg === undefined ? undefined : section(setupCfg, 'options.extras_require');
  const declared = new Set([...[...pyExtras.keys()].map(norm), ...keysOf(cfgExtras)]);
  const hatch = hatchTestEnv(pyproject ?? '');
  const features = (hatch?.features ?? []).map(norm).filter((f) => declared.has(f));
  const extras = installable ? [...new Set([...TEST_EXTRAS.filter((e) => declared.has(e)), ...features])] : [];
  const allGroups = dependencyGroups(pyproject ?? '');
  const groups = chooseGroups([...allGroups.keys()]);
  const groupRequirements = [...new Set(groups.flatMap((g) => resolveGroup(allGroups, g)))];
  const requirementTexts = await Promise.all(requirements.map(async (f) => (await read(dir, f)) ?? ''));
  const pytestConfigured =
    (await read(dir, 'pytest.ini')) !== undefined ||
    (pyproject !== undefined && /^\s*\[tool\.pytest/m.test(pyproject)) ||
    (setupCfg !== undefined && section(setupCfg, 'tool:pytest') !== undefined) ||
    /^\s*\[pytest\]/m.test(toxIni ?? '');
  return {
    files,
    installable,
    extras,
    requirements,
    groups,
    declaredGroups: [...allGroups.keys()],
    groupRequirements,
    usesPytest: pytestConfigured || (await hasTestFiles(dir)),
    declaresPytest: [
      ...extras.flatMap((e) => pyExtras.get(e) ?? []),
      cfgExtras ?? '',
      ...groupRequirements,
      ...requirementTexts,
      ...(hatch?.dependencies ?? []),
      ...(tox?.requirements ?? []),
    ].some((t) => PYTEST.test(t)),
    ...(hatch === undefined ? {} : { hatch }),
    ...(tox === undefined ? {} : { tox }),
  };
}
