/**
 * Where the environment phase keeps things. Shared across the runs of a repository (under
 * the harness state dir, beside the per-worktree sandbox state; across repositories only
 * with ISSUE_AGENT_CACHE_SCOPE=worker): package-manager caches and stores, Go's module
 * and build caches, cargo's home, Maven's local repository, and stamps saying which
 * lockfile a cache already holds; fetched package managers are the worker's. Per worktree: the
 * venv, the agent's own GOCACHE, the setup HOME and the stamps of steps done there.
 * The sandbox hides all of it but the dirs a report lists.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { CacheLayout, WorktreeLayout } from '../../contracts/environment-dirs.js';
import { environmentCacheRoot, environmentStateDir } from '../workspace/sandbox-state.js';
import { CacheScope, cacheScopeFromEnv } from './cache-scope.js';

type Env = Readonly<Record<string, string | undefined>>;

export type { CacheLayout, WorktreeLayout } from '../../contracts/environment-dirs.js';

export function sha(...parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/**
 * The caches a repository's setup and commands use: its own under
 * `<cache>/repositories/<key>/` (or the worker's one set, cache-scope.ts), with the
 * fetched tools shared. `repository`: its identity (repository-identity.ts), or a path.
 */
export function cacheLayout(repository: string, env: Env = process.env): CacheLayout {
  const shared = environmentCacheRoot(env);
  const repoKey = sha(path.isAbsolute(repository) ? path.resolve(repository) : repository);
  const root = cacheScopeFromEnv(env) === CacheScope.Worker ? shared : path.join(shared, 'repositories', repoKey);
  return { ...cachesUnder(root, repoKey), tools: path.join(shared, 'tools') };
}

/** The same caches under another root (setup-scope.ts: a worktree's private ones). */
export function cachesUnder(root: string, repoKey: string): CacheLayout {
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
    validatorGoCache: path.join(dir, 'validator-gocache'),
    setupHome: path.join(dir, 'setup-home'),
    stamps: path.join(dir, 'stamps'),
  };
}
