/**
 * Which tool manages a Python project's dependencies, from its files: **uv** (a
 * `uv.lock`, or pyproject `[tool.uv…]` with no Poetry lock), **Poetry** (a `poetry.lock`,
 * usually beside pyproject `[tool.poetry…]`), **PDM** (a `pdm.lock`; a `[tool.pdm]` without
 * it keeps the pip plan), else none (the plain venv + pip plan). A managed project is
 * installed from its lockfile, so the versions the tests get are the locked ones.
 * Poetry's dependency groups are read from their table headers
 * (`[tool.poetry.group.<name>.dependencies]`), with no TOML parser.
 */
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';

export const PythonManager = {
  Uv: 'uv',
  Poetry: 'poetry',
  Pdm: 'pdm',
} as const;
export type PythonManager = (typeof PythonManager)[keyof typeof PythonManager];

export interface ManagedProject {
  readonly manager: PythonManager;
  /** The lockfile (`uv.lock`, `poetry.lock`), when there is one. */
  readonly lockfile?: string;
  /** Poetry dependency groups the project declares (names as written); empty for uv. */
  readonly poetryGroups: readonly string[];
  /** Poetry `[tool.poetry.extras]` names; empty for uv. */
  readonly poetryExtras: readonly string[];
  /** One line: what made it this manager's project. */
  readonly why: string;
  /** uv: `[tool.uv.workspace]` at the root (every member is synced). */
  readonly uvWorkspace?: boolean;
  /** uv: the exact version `[tool.uv] required-version` pins (`==0.5.2`), fetched instead of the default. */
  readonly uvVersion?: string;
}

const exists = (file: string): Promise<boolean> =>
  access(file).then(
    () => true,
    () => false,
  );

const header = (pyproject: string, table: string): boolean =>
  new RegExp(`^[ \\t]*\\[[ \\t]*${table.replace(/\./g, '\\.')}[ \\t]*[\\].]`, 'm').test(pyproject);

/** `[tool.poetry.group.<name>]` / `[tool.poetry.group.<name>.dependencies]` and the legacy dev table. */
export function poetryGroups(pyproject: string): string[] {
  const names = [
    ...pyproject.matchAll(/^[ \t]*\[[ \t]*tool\.poetry\.group\.("[^"]+"|[A-Za-z0-9_-]+)[ \t]*[\].]/gm),
  ].map((m) => (m[1] ?? '').replace(/^"|"$/g, ''));
  if (header(pyproject, 'tool.poetry.dev-dependencies')) names.push('dev');
  return [...new Set(names)];
}

/** The keys of `[tool.poetry.extras]` (`name = [...]` lines). */
export function poetryExtras(pyproject: string): string[] {
  const start = /^[ \t]*\[[ \t]*tool\.poetry\.extras[ \t]*\][^\n]*$/m.exec(pyproject);
  if (!start) return [];
  const body = pyproject.slice(start.index + start[0].length).split(/^[ \t]*\[[^\]\n]*\][ \t]*(#.*)?$/m)[0] ?? '';
  return [...body.matchAll(/^[ \t]*["']?([A-Za-z0-9_.-]+)["']?[ \t]*=/gm)].map((m) => m[1] ?? '');
}

/** An exact `required-version` of `[tool.uv]` (`"==0.5.2"`, `"0.5.2"`); a range is left to the default uv. */
export function uvRequiredVersion(pyproject: string): string | undefined {
  const start = /^[ \t]*\[[ \t]*tool\.uv[ \t]*\][^\n]*$/m.exec(pyproject);
  if (!start) return undefined;
  const body = pyproject.slice(start.index + start[0].length).split(/^[ \t]*\[/m)[0] ?? '';
  return /^[ \t]*required-version[ \t]*=[ \t]*["'](?:==)?[ \t]*(\d+\.\d+\.\d+)["']/m.exec(body)?.[1];
}

export async function readManagedProject(dir: string): Promise<ManagedProject | undefined> {
  const pyproject = await readFile(path.join(dir, 'pyproject.toml'), 'utf8').catch(() => undefined);
  if (pyproject === undefined) return undefined;
  const uvLock = await exists(path.join(dir, 'uv.lock'));
  const poetryLock = await exists(path.join(dir, 'poetry.lock'));
  const poetry = header(pyproject, 'tool.poetry');
  const version = uvRequiredVersion(pyproject);
  const none = {
    poetryGroups: [],
    poetryExtras: [],
    ...(header(pyproject, 'tool.uv.workspace') ? { uvWorkspace: true } : {}),
    ...(version === undefined ? {} : { uvVersion: version }),
  };
  if (uvLock) return { manager: PythonManager.Uv, lockfile: 'uv.lock', why: 'uv.lock', ...none };
  // Only Poetry writes a poetry.lock (a Poetry 2 project may declare all in [project]).
  if (poetryLock)
    return {
      manager: PythonManager.Poetry,
      lockfile: 'poetry.lock',
      poetryGroups: poetryGroups(pyproject),
      poetryExtras: poetryExtras(pyproject),
      why: `poetry.lock${poetry ? ' and pyproject [tool.poetry]' : ''}`,
    };
  if (await exists(path.join(dir, 'pdm.lock')))
    return {
      manager: PythonManager.Pdm,
      lockfile: 'pdm.lock',
      why: `pdm.lock${header(pyproject, 'tool.pdm') ? ' and pyproject [tool.pdm]' : ''}`,
      ...none,
    };
  if (header(pyproject, 'tool.uv') && !poetryLock)
    return { manager: PythonManager.Uv, why: 'pyproject [tool.uv], no lockfile (uv resolves one)', ...none };
  return undefined;
}
