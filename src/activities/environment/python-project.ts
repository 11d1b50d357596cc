/**
 * What a Python project declares, read without a TOML parser (only what the plan needs):
 * whether it is installable (pyproject `[project]`/`[build-system]`, setup.cfg
 * `[metadata]`, setup.py), its optional-dependency groups (pyproject
 * `[project.optional-dependencies]`, setup.cfg `[options.extras_require]`), its
 * requirements files, and whether its tests use pytest without declaring it.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export const TEST_EXTRAS = ['test', 'tests', 'testing', 'dev'] as const;

export interface PythonProject {
  /** The files that made it a Python project (for the reason line and the step's inputs). */
  readonly files: readonly string[];
  readonly installable: boolean;
  /** Test extras the project declares, among TEST_EXTRAS. */
  readonly extras: readonly string[];
  readonly requirements: readonly string[];
  readonly usesPytest: boolean;
  readonly declaresPytest: boolean;
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
  const top = await readdir(dir).catch(() => [] as string[]);
  const requirements = top.filter((f) => /^requirements.*\.txt$/.test(f)).sort();
  const files = [
    ...(pyproject === undefined ? [] : ['pyproject.toml']),
    ...(setupCfg === undefined ? [] : ['setup.cfg']),
    ...(setupPy === undefined ? [] : ['setup.py']),
    ...requirements,
  ];
  if (files.length === 0) return undefined;
  const installable =
    setupPy !== undefined ||
    (setupCfg !== undefined && section(setupCfg, 'metadata') !== undefined) ||
    (pyproject !== undefined && /^\s*\[(project|build-system|tool\.poetry)\]/m.test(pyproject));
  const pyExtras = pyproject === undefined ? undefined : section(pyproject, 'project.optional-dependencies');
  const cfgExtras = setupCfg === undefined ? undefined : section(setupCfg, 'options.extras_require');
  const declared = new Set([...keysOf(pyExtras), ...keysOf(cfgExtras)]);
  const extras = installable ? TEST_EXTRAS.filter((e) => declared.has(e)) : [];
  const requirementTexts = await Promise.all(requirements.map(async (f) => (await read(dir, f)) ?? ''));
  const pytestConfigured =
    (await read(dir, 'pytest.ini')) !== undefined ||
    (pyproject !== undefined && /^\s*\[tool\.pytest/m.test(pyproject)) ||
    (setupCfg !== undefined && section(setupCfg, 'tool:pytest') !== undefined) ||
    /^\s*\[pytest\]/m.test((await read(dir, 'tox.ini')) ?? '');
  return {
    files,
    installable,
    extras,
    requirements,
    usesPytest: pytestConfigured || (await hasTestFiles(dir)),
    declaresPytest: [pyExtras ?? '', cfgExtras ?? '', ...requirementTexts].some((t) => PYTEST.test(t)),
  };
}
