/**
 * The two pyproject.toml tables the Python plan reads as data, not just as keys:
 * PEP 735 `[dependency-groups]` (requirement strings and `{include-group = "…"}`) and
 * `[project.optional-dependencies]`, whether written as its own table, as an inline table
 * (`optional-dependencies = { test = […] }`) or as dotted keys under `[project]` (TOML
 * makes the three one table). Parsed by smol-toml; a file that is not TOML has neither
 * table (pip and uv refuse such a file too), so nothing is guessed from it.
 */
import { parse } from 'smol-toml';

/** A dependency group entry: a requirement string or an include of another group. */
export type GroupEntry = string | { readonly includeGroup: string };

type Table = Readonly<Record<string, unknown>>;

const isTable = (value: unknown): value is Table =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** The table at `path` (e.g. ['project', 'optional-dependencies']); undefined when absent or not TOML. */
function tableAt(pyproject: string, path: readonly string[]): Table | undefined {
  let node: unknown;
  try {
    node = parse(pyproject);
  } catch {
    return undefined;
  }
  for (const key of path) node = isTable(node) ? node[key] : undefined;
  return isTable(node) ? node : undefined;
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** PEP 735 `[dependency-groups]`: group name as written → its entries (empty map without the table). */
export function dependencyGroups(pyproject: string): Map<string, GroupEntry[]> {
  const groups = new Map<string, GroupEntry[]>();
  for (const [name, value] of Object.entries(tableAt(pyproject, ['dependency-groups']) ?? {})) {
    if (!Array.isArray(value)) continue;
    groups.set(
      name,
      value.flatMap((v: unknown): GroupEntry[] => {
        if (typeof v === 'string') return [v];
        const include = isTable(v) ? v['include-group'] : undefined;
        return typeof include === 'string' ? [{ includeGroup: include }] : [];
      }),
    );
  }
  return groups;
}

/** `[project.optional-dependencies]` in any of its three spellings: extra → requirement strings. */
export function optionalDependencies(pyproject: string): Map<string, string[]> {
  const extras = new Map<string, string[]>();
  for (const [name, value] of Object.entries(tableAt(pyproject, ['project', 'optional-dependencies']) ?? {})) {
    extras.set(name, strings(value));
  }
  return extras;
}
