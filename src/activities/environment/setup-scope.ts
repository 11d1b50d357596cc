/**
 * Which shared caches one setup command may write. A setup runs code the repository
 * chose (a build backend, a postinstall script, a Cargo build script), and the shared
 * caches are read by every later run of every repository on this worker: a Python
 * repository's `setup.py` that writes into cargo's `registry/src` changes what the next
 * Rust repository compiles. So each command gets writable only the shared caches of the
 * ecosystem it prepares (their owner: the module whose setup planned it); a configured
 * `commands.setup` names no ecosystem and gets them all. The other ecosystems' variables
 * point at caches of the worktree's own, under its state dir: a `pip install` that builds
 * a Rust extension still fetches its crates, into a CARGO_HOME no other run reads.
 *
 * The fetched tools dir (`<cache>/tools`) is written only by the steps that fetch a
 * pinned tool (`installsTool`), which run none of the repository's code; every other
 * command sees it read-only.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { CacheLayout, WorktreeLayout } from '../../contracts/environment-dirs.js';
import type { EcosystemId } from '../../definition/ecosystems/ecosystem.js';
import { ECOSYSTEMS } from '../../definition/ecosystems/ecosystem-registry.js';
import { cachesUnder } from './cache-layout.js';
import { isStrictlyInside } from '../../definition/load/path-inside.js';
import type { CommandRunner } from '../process/command-runner.js';

/** The ecosystems whose shared caches a command fills. */
export type CacheOwners = readonly EcosystemId[];

/** A configured setup's: every ecosystem's. */
export const ALL_CACHE_OWNERS: CacheOwners = ECOSYSTEMS.map((ecosystem) => ecosystem.id);

/** No shared cache: a probe, a copy the harness makes. */
export const NO_CACHE_OWNERS: CacheOwners = [];

/** The worktree's own caches, for the ecosystems a command does not prepare. */
export function privateCaches(worktree: WorktreeLayout): CacheLayout {
  return cachesUnder(path.join(worktree.dir, 'caches'), 'worktree');
}

/**
 * The shared dirs the owners' setups fill: what their `setupEnv` points inside the
 * shared cache root (so an ecosystem's caches are named in one place, its module).
 */
export function sharedCacheDirs(owners: CacheOwners, caches: CacheLayout, worktree: WorktreeLayout): string[] {
  const dirs = new Set<string>();
  for (const ecosystem of ECOSYSTEMS) {
    if (!owners.includes(ecosystem.id)) continue;
    for (const value of Object.values(ecosystem.setupEnv?.(caches, worktree, {}) ?? {}))
      if (path.isAbsolute(value) && isStrictlyInside(caches.root, value)) dirs.add(value);
  }
  return [...dirs];
}

/** What one command of the environment phase may write and read of the shared dirs. */
export interface SetupScope {
  readonly writableDirs: readonly string[];
  readonly readOnlyDirs: readonly string[];
}

export function setupScope(options: {
  readonly owners: CacheOwners;
  readonly installsTool?: boolean;
  readonly caches: CacheLayout;
  readonly worktree: WorktreeLayout;
}): SetupScope {
  const { caches, worktree } = options;
  const tools = options.installsTool === true ? { writable: [caches.tools], readOnly: [] } : undefined;
  return {
    writableDirs: [...sharedCacheDirs(options.owners, caches, worktree), ...(tools?.writable ?? []), worktree.dir],
    readOnlyDirs: tools === undefined ? [caches.tools] : [],
  };
}

/**
 * The runner every command of the environment phase goes through: a request names its
 * scope (setupScope), else it writes only the worktree's own dirs and reads the tools;
 * the writable dirs are made first, so the sandbox can show them.
 */
export function scopedSetupRunner(runner: CommandRunner, caches: CacheLayout, worktree: WorktreeLayout): CommandRunner {
  return {
    run: async (request) => {
      const writableDirs = request.writableDirs ?? [worktree.dir];
      for (const dir of writableDirs) await mkdir(dir, { recursive: true, mode: 0o700 });
      return runner.run({ ...request, writableDirs, readOnlyDirs: request.readOnlyDirs ?? [caches.tools] });
    },
  };
}
