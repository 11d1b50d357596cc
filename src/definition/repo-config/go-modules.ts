/**
 * The Go modules of a repository, and the commands that cover all of them. `go test ./...`
 * at the root stops at every nested `go.mod`: a second module's packages are not part of
 * the root's `./...`, with or without a go.work (measured with go 1.26), so its tests
 * would never run. A repository with one module at the root keeps the plain commands;
 * with several, each runs in every module's directory and the loop goes on past a failing
 * one, exiting non-zero if any failed.
 *
 * The modules are go.work's `use` directories when there is one (what the developer builds
 * together), else every directory holding a go.mod, a few levels down, leaving out those
 * the go command ignores (`vendor`, `testdata`, `_x`, `.x`) and `node_modules`.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export interface GoModules {
  /** Module directories relative to the root, `.` for the root, sorted. */
  readonly dirs: readonly string[];
  /** Found from go.work's `use` directives. */
  readonly work: boolean;
}

const MAX_DEPTH = 4;
const IGNORED = new Set(['vendor', 'testdata', 'node_modules']);

/** The repository's Go modules, or undefined when it has none. */
export async function goModules(root: string): Promise<GoModules | undefined> {
  const work = await readFile(path.join(root, 'go.work'), 'utf8').catch(() => undefined);
  if (work !== undefined) {
    const dirs = useDirectives(work);
    if (dirs.length > 0) return { dirs, work: true };
  }
  const dirs = await findModules(root, '.', 0);
  return dirs.length === 0 ? undefined : { dirs: dirs.sort(), work: false };
}

/** `use ./a`, `use "./b c"` and `use ( ./a \n ./b )`, normalised (`./a` → `a`, `.` stays). PURE. */
export function useDirectives(goWork: string): string[] {
  const text = goWork.replace(/\/\/.*$/gm, '');
  const dirs: string[] = [];
  for (const m of text.matchAll(/^\s*use\s*(?:\(([^)]*)\)|("[^"]*"|`[^`]*`|\S+))/gm)) {
    const listed = m[1] === undefined ? [m[2] ?? ''] : (m[1].match(/"[^"]*"|`[^`]*`|\S+/g) ?? []);
    for (const d of listed) dirs.push(path.posix.normalize(d.replace(/^["`]|["`]$/g, '')));
  }
  return [...new Set(dirs)].sort();
}

async function findModules(root: string, rel: string, depth: number): Promise<string[]> {
  const entries = await readdir(path.join(root, rel), { withFileTypes: true }).catch(() => []);
  const here = entries.some((e) => e.isFile() && e.name === 'go.mod') ? [rel] : [];
  if (depth >= MAX_DEPTH) return here;
  const below = await Promise.all(
    entries
      .filter((e) => e.isDirectory() && !IGNORED.has(e.name) && !/^[._]/.test(e.name))
      .map((e) => findModules(root, path.posix.join(rel, e.name), depth + 1)),
  );
  return [...here, ...below.flat()];
}

/** True when the plain root command covers every module. PURE. */
export function singleRootModule(modules: GoModules): boolean {
  return modules.dirs.length === 1 && modules.dirs[0] === '.';
}

/**
 * `command` in every module's directory, going on past a failing one; the plain command
 * for a single root module. Directories are quoted for bash (a space, a `$`). PURE.
 */
export function inEveryModule(modules: GoModules, command: string): string {
  if (singleRootModule(modules)) return command;
  const dirs = modules.dirs.map((d) => `'${d.replace(/'/g, `'\\''`)}'`).join(' ');
  return `rc=0; for m in ${dirs}; do (cd "$m" && ${command}) || rc=1; done; exit $rc`;
}

/** The go.mod, go.sum and go.work files that key the setup's steps. */
export async function goInputs(root: string, modules: GoModules): Promise<string[]> {
  const candidates = [
    ...(modules.work ? ['go.work', 'go.work.sum'] : []),
    ...modules.dirs.flatMap((d) => [path.posix.join(d, 'go.mod'), path.posix.join(d, 'go.sum')]),
  ];
  const present = await Promise.all(
    candidates.map((f) =>
      readFile(path.join(root, f)).then(
        () => f,
        () => undefined,
      ),
    ),
  );
  return present.filter((f): f is string => f !== undefined);
}
