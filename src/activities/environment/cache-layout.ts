/**
 * Where the environment phase keeps things. Shared across runs (under the harness state
 * dir, beside the per-worktree sandbox state): package-manager caches and stores, Go's
 * module cache and per-repository build caches, cargo's home, Maven's local repository, fetched package managers,
 * and stamps saying which repository+lockfile a cache already holds. Per worktree: the
 * venv, the agent's own GOCACHE, the setup HOME and the stamps of steps done there.
 * The sandbox hides all of it but the dirs a report lists.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { environmentCacheRoot, environmentStateDir } from '../workspace/sandbox-state.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface CacheLayout {
  readonly root: string;
  readonly npm: string;
  readonly pnpmStore: string;
  readonly yarnClassic: string;
  readonly yarnBerry: string;
  readonly bun: string;
  readonly pip: string;
  readonly uv: string;
  /** POETRY_CACHE_DIR: Poetry's downloads and wheels. */
  readonly poetry: string;
  /** PDM_CACHE_DIR: PDM's downloads, wheels and package cache. */
  readonly pdm: string;
  readonly goMod: string;
  /** Go build cache of this repository (warmed by setup, copied for each worktree). */
  readonly goBuild: string;
  readonly cargoHome: string;
  /** MAVEN_USER_HOME: a wrapper's Maven distributions; the local repository is under it. */
  readonly maven: string;
  readonly mavenRepo: string;
  /** Fetched package managers: `<tools>/<name>-<version>`. */
  readonly tools: string;
  /** Shared stamps: `<stamps>/<key>` = a cache holds this repository+lockfile. */
  readonly stamps: string;
}

export interface WorktreeLayout {
  readonly dir: string;
  readonly venv: string;
  readonly goCache: string;
  readonly setupHome: string;
  readonly stamps: string;
}

export function sha(...parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex').slice(0, 16);
}

export function cacheLayout(repoPath: string, env: Env = process.env): CacheLayout {
  const root = environmentCacheRoot(env);
  const repoKey = sha(path.resolve(repoPath));
  return {
    root,
    npm: path.join(root, 'npm'),
    pnpmStore: path.join(root, 'pnpm-store'),
    yarnClassic: path.join(root, 'yarn'),
    yarnBerry: path.join(root, 'yarn-berry'),
    bun: path.join(root, 'bun'),
    pip: path.join(root, 'pip'),
    uv: path.join(root, 'uv'),
    poetry: path.join(root, 'poetry'),
    pdm: path.join(root, 'pdm'),
    goMod: path.join(root, 'go', 'mod'),
    goBuild: path.join(root, 'go', 'build', repoKey),
    cargoHome: path.join(root, 'cargo'),
    maven: path.join(root, 'maven'),
    mavenRepo: path.join(root, 'maven', 'repository'),
    tools: path.join(root, 'tools'),
    stamps: path.join(root, 'stamps'),
  };
}

export function worktreeLayout(worktreePath: string, env: Env = process.env): WorktreeLayout {
  const dir = environmentStateDir(worktreePath, env);
  return {
    dir,
    venv: path.join(dir, 'venv'),
    goCache: path.join(dir, 'gocache'),
    setupHome: path.join(dir, 'setup-home'),
    stamps: path.join(dir, 'stamps'),
  };
}
