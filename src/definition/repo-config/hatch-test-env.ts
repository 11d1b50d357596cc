/**
 * A Hatch project's test environment, read from pyproject `[tool.hatch.envs.<env>]`: the
 * env named `test`/`tests`/`testing` if there is one, else `default`. Hatch keeps test
 * tools (pytest, pytest-cov …) only there, so without this the venv lacks them, and its
 * test script (`scripts.test`, else `scripts.cov`) is the command the project runs. Hatch
 * itself is not run: it would make its own envs with the network, and the sandbox is
 * offline. So the env's dependencies go into the run's venv and the script becomes a plain
 * command (`{args:tests}` → `tests`, `{args}` → nothing, another script's name → its
 * commands); a script using any other context field (`{env:…}`, `{matrix:…}`) is not taken.
 */
import { parse } from 'smol-toml';

export const HATCH_TEST_ENVS = ['test', 'tests', 'testing'] as const;
export const HATCH_TEST_SCRIPTS = ['test', 'cov'] as const;

export interface HatchTestEnv {
  /** The env read (`test`, …, or `default`). */
  readonly env: string;
  /** Its dependencies and extra-dependencies, with `default`'s when it inherits them. */
  readonly dependencies: readonly string[];
  /** Its `features`: the project's extras it installs. */
  readonly features: readonly string[];
  /** The test script as one command, and the script's name and text as written. */
  readonly script?: { readonly name: string; readonly command: string; readonly written: string };
}

type Table = Readonly<Record<string, unknown>>;
const isTable = (v: unknown): v is Table => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : typeof v === 'string' ? [v] : [];

function envsOf(pyproject: string): Table | undefined {
  try {
    const tool = (parse(pyproject) as Table)['tool'];
    const hatch = isTable(tool) ? tool['hatch'] : undefined;
    const envs = isTable(hatch) ? hatch['envs'] : undefined;
    return isTable(envs) ? envs : undefined;
  } catch {
    return undefined;
  }
}

/** One script's commands with `{args…}` replaced and script names expanded; undefined if not plain. */
function expand(scripts: Table, name: string, seen: ReadonlySet<string> = new Set()): string[] | undefined {
  if (seen.has(name)) return undefined;
  const out: string[] = [];
  for (const line of strings(scripts[name])) {
    if (scripts[line] !== undefined) {
      const inner = expand(scripts, line, new Set([...seen, name]));
      if (inner === undefined) return undefined;
      out.push(...inner);
      continue;
    }
    const plain = line
      .replace(/\{args:([^{}]*)\}/g, '$1')
      .replace(/\{args\}/g, '')
      .replace(/\{root\}/g, '.')
      .replace(/\s+/g, ' ')
      .trim();
    if (/[{}]/.test(plain) || plain === '') return undefined;
    out.push(plain);
  }
  return out.length > 0 ? out : undefined;
}

/** The test env of a pyproject.toml text; undefined when it has no `[tool.hatch.envs]`. */
export function hatchTestEnv(pyproject: string): HatchTestEnv | undefined {
  const envs = envsOf(pyproject);
  if (envs === undefined) return undefined;
  const name = HATCH_TEST_ENVS.find((n) => isTable(envs[n])) ?? (isTable(envs['default']) ? 'default' : undefined);
  if (name === undefined) return undefined;
  const env = envs[name] as Table;
  const base = isTable(envs['default']) ? envs['default'] : {};
  // Hatch envs inherit from `template` (default: `default`) unless detached.
  const inherits = name !== 'default' && env['detached'] !== true && (env['template'] ?? 'default') === 'default';
  const from = inherits ? [base, env] : [env];
  const dependencies = [
    ...new Set(from.flatMap((t) => [...strings(t['dependencies']), ...strings(t['extra-dependencies'])])),
  ];
  const features = [...new Set(from.flatMap((t) => strings(t['features'])))];
  const scripts = {
    ...(inherits && isTable(base['scripts']) ? base['scripts'] : {}),
    ...(isTable(env['scripts']) ? env['scripts'] : {}),
  };
  let script: HatchTestEnv['script'];
  for (const s of HATCH_TEST_SCRIPTS) {
    const commands = expand(scripts, s);
    if (commands === undefined) continue;
    script = { name: s, command: commands.join(' && '), written: strings(scripts[s]).join('; ') };
    break;
  }
  return { env: name, dependencies, features, ...(script === undefined ? {} : { script }) };
}
