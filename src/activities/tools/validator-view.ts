/**
 * What a configured command (a validator, the preflight, a run step) trusts that the
 * agent's own commands could have written, and so gets of its own. Test tools reuse what
 * they find without rebuilding it: a test binary in cargo's `target/` whose fingerprints
 * say it is fresh, test classes in Maven's `target/` newer than their sources, a Gradle
 * task its execution history calls up to date, a `(cached)` result in Go's build cache,
 * bytecode Python loads instead of the source (its header holds the source's mtime and
 * size, both of which the agent sets), a transform cache under `node_modules/.cache`. And
 * tools read their user config from HOME: `~/.npmrc`'s `script-shell`, a profile in
 * `~/.m2/settings.xml` that skips the tests, a `.pth` in Python's user site. None of it is
 * tracked by git, so no check of the diff sees it.
 *
 * So a configured command runs with a HOME of the validators' own, and with build outputs
 * and caches kept under the worktree's sandbox state, which the agent's commands never
 * see: named by the tools' own variables, or shown at the paths the build expects
 * (overlays). The HOME is a copy of the agent's made at the worktree's first configured
 * command, the preflight, which runs before any of the agent's steps: what an
 * agent-written setup cached there (its `~/.m2`) is found, what a step wrote later is not
 * (validator-home.ts). They persist
 * across the run's configured commands, so a validator rebuilds only what changed (a
 * source changed back with its old mtime is freshened first: conditions/judged-tree/).
 * What the code under test writes while a validator runs it is the diff's to answer for.
 */
import { existsSync, lstatSync, readdirSync, type Dirent } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { SandboxEnvironment } from '../../contracts/environment.js';
import { validatorStateDir } from '../workspace/sandbox-state.js';
import type { SandboxOverlay } from './sandbox-prelude.js';
import { validatorHome } from './validator-home.js';

export interface ValidatorView {
  /** The validators' HOME (validator-home.ts). */
  readonly home: string;
  /** Set over the prepared environment (a command's own `env` still wins). */
  readonly env: Readonly<Record<string, string>>;
  /** Writable besides the worktree and the HOME. */
  readonly writable: readonly string[];
  /** The validators' own directories shown at the build's paths in the worktree. */
  readonly overlays: readonly SandboxOverlay[];
}

/**
 * Build files and the output directories their tool reuses beside them. Maven's compiled
 * classes only: Surefire's reports stay in `target/` where the report reader finds them
 * (test-reports/surefire-report-files.ts), read only if this run wrote them.
 */
const BUILD_OUTPUTS: readonly (readonly [file: string, output: string])[] = [
  ['pom.xml', 'target/classes'],
  ['pom.xml', 'target/test-classes'],
  ['pom.xml', 'target/generated-sources'],
  ['pom.xml', 'target/generated-test-sources'],
  ['build.gradle', 'build'],
  ['build.gradle.kts', 'build'],
  ['settings.gradle', '.gradle'],
  ['settings.gradle.kts', '.gradle'],
];
/** Deep enough for a module of a module; the worktree's root is depth 0. */
const MAX_DEPTH = 3;
const NOT_SEARCHED = new Set(['node_modules', 'target', 'build', 'vendor']);

/** Worktree-relative output directories of the builds found (`target`, `core/target`, `build`, `.gradle`). */
export function buildOutputPaths(worktree: string): string[] {
  const out: string[] = [];
  const visit = (rel: string, depth: number): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(path.join(worktree, rel), { withFileTypes: true });
    } catch {
      return;
    }
    const files = new Set(entries.filter((e) => e.isFile()).map((e) => e.name));
    for (const [file, output] of BUILD_OUTPUTS) {
      const at = path.join(rel, output);
      if (files.has(file) && !out.includes(at)) out.push(at);
    }
    if (depth === MAX_DEPTH) return;
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.startsWith('.') || NOT_SEARCHED.has(entry.name)) continue;
      visit(path.join(rel, entry.name), depth + 1);
    }
  };
  visit('', 0);
  return out;
}

/**
 * Whether a build output directory (`target`, `target/classes`) can be shown from the
 * validators' own. A symlink the agent made there would lead the overlay elsewhere: it is
 * removed (the link, not what it points to) and the directories are made again. A file
 * there (a `build` script beside build.gradle) is the repository's: it stays, and that
 * output is not shown from the validators' own.
 */
async function clearPlanted(worktree: string, rel: string): Promise<boolean> {
  let at = worktree;
  for (const part of rel.split(path.sep)) {
    at = path.join(at, part);
    let info;
    try {
      info = lstatSync(at);
    } catch {
      return true;
    }
    if (info.isSymbolicLink()) {
      await rm(at, { force: true });
      return true;
    }
    if (!info.isDirectory()) return false;
  }
  return true;
}

/**
 * Where a configured command's test reports go (test-reports/report-files.ts): writable to
 * it, never seen by the agent's commands, outside the worktree so nothing is committed.
 */
export function validatorReportDir(worktree: string): string {
  return path.join(validatorStateDir(worktree), 'reports');
}

export async function validatorView(
  worktree: string,
  agentHome: string,
  prepared: SandboxEnvironment | undefined,
  /** A git work tree: its build outputs are shown from the validators' own, its sources freshened. Not `/tmp`. */
  inWorktree: boolean,
): Promise<ValidatorView> {
  const root = validatorStateDir(worktree);
  const home = await validatorHome(root, agentHome);
  const dirs = {
    pycache: path.join(root, 'pycache'),
    cargoTarget: path.join(root, 'cargo-target'),
    ruff: path.join(root, 'ruff'),
    mypy: path.join(root, 'mypy'),
    reports: validatorReportDir(worktree),
  };
  const rels: string[] = [];
  for (const rel of inWorktree ? buildOutputPaths(worktree) : []) if (await clearPlanted(worktree, rel)) rels.push(rel);
  const outputs = rels.map((rel) => path.join(worktree, rel));
  // The caches test tools write inside read-only installed dependencies (node_modules/.cache).
  const caches = (prepared?.installed?.writable ?? []).filter((dir) => existsSync(dir));
  const overlays = [...outputs, ...caches].map((target) => ({
    target,
    source: path.join(root, 'at', path.relative(worktree, target)),
  }));
  for (const dir of [...Object.values(dirs), ...overlays.map((o) => o.source)]) await mkdir(dir, { recursive: true });
  // Made here, whole: the sandbox makes a missing mount point but not its parents (`target/`).
  for (const target of outputs) await mkdir(target, { recursive: true });
  const own = prepared?.validators;
  return {
    home,
    env: {
      PYTHONPYCACHEPREFIX: dirs.pycache,
      CARGO_TARGET_DIR: dirs.cargoTarget,
      RUFF_CACHE_DIR: dirs.ruff,
      MYPY_CACHE_DIR: dirs.mypy,
      ...own?.env,
    },
    writable: [...Object.values(dirs), ...(own?.writableDirs ?? [])],
    overlays,
  };
}
