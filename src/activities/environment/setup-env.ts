/**
 * The environment setup commands run with: the worker's own (for PATH, certificates,
 * proxies and toolchain roots) minus every credential and service address, with a
 * private HOME instead of the worker's (no ~/.npmrc token, ~/.git-credentials or gh
 * config), and the shared caches each ecosystem module names, so installs are reused across runs.
 * Setup is networked, runs in the sandbox (sandboxed-setup-runner) and the repository's
 * own code at the base commit (like a user's `npm ci`), and sees no secret.
 */
import os from 'node:os';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { isSecretName } from '../tools/sandbox-env.js';
import { ECOSYSTEMS } from '../../definition/ecosystems/ecosystem-registry.js';
import type { CacheLayout, WorktreeLayout } from './cache-layout.js';
import { ALL_CACHE_OWNERS, privateCaches, type CacheOwners } from './setup-scope.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Where packages come from: kept when set, unless a credential is written into the URL. */
const REGISTRY_POINTERS = new Set(ECOSYSTEMS.flatMap((ecosystem) => ecosystem.registryPointers ?? []));
const USERINFO = /:\/\/[^/\s]*@/;

/** The worker's per-user state, replaced or dropped; npm's own `npm_*` of a parent `npm run`. */
const DROPPED =
  /^(HOME|TMPDIR|USERPROFILE|XDG_[A-Z_]+|npm_.*|NODE_TEST_CONTEXT|NODE_CHANNEL_FD|NODE_UNIQUE_ID|VIRTUAL_ENV)$/;

/** Toolchain roots that default to $HOME: kept pointing at the worker's installs. */
const HOME_TOOLCHAINS = ECOSYSTEMS.flatMap((ecosystem) => ecosystem.homeToolchains ?? []);

/** The setup commands' TMPDIR, under the worktree's setup HOME (made before setup runs). */
export function setupTmpDir(worktree: WorktreeLayout): string {
  return path.join(worktree.setupHome, 'tmp');
}

export function isCredentialFree(name: string, value: string): boolean {
  if (REGISTRY_POINTERS.has(name)) return !USERINFO.test(value);
  return !isSecretName(name);
}

export function setupEnv(options: {
  readonly source: Env;
  readonly caches: CacheLayout;
  readonly worktree: WorktreeLayout;
  readonly pathPrepend: readonly string[];
  /** Whose caches are the shared ones (setup-scope.ts); the others' point at the worktree's own. Default: all. */
  readonly owners?: CacheOwners;
}): Record<string, string> {
  const { source, caches, worktree } = options;
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || DROPPED.test(name) || !isCredentialFree(name, value)) continue;
    env[name] = value;
  }
  for (const [name, dir] of HOME_TOOLCHAINS) {
    const real = path.join(os.homedir(), dir);
    if (env[name] === undefined && existsSync(real)) env[name] = real;
  }
  const pathVar = source['PATH'] ?? '/usr/local/bin:/usr/bin:/bin';
  // Each ecosystem names its caches (npm_config_cache, PIP_CACHE_DIR, CARGO_HOME …): the shared
  // ones for the ecosystems the command prepares, the worktree's own for the others.
  const cacheVars: Record<string, string> = {};
  const owners = options.owners ?? ALL_CACHE_OWNERS;
  for (const ecosystem of ECOSYSTEMS) {
    const layout = owners.includes(ecosystem.id) ? caches : privateCaches(worktree);
    Object.assign(cacheVars, ecosystem.setupEnv?.(layout, worktree, env));
  }
  return {
    ...env,
    PATH: [...options.pathPrepend, pathVar].join(':'),
    HOME: worktree.setupHome,
    // On disk: the sandbox's own /tmp is a small tmpfs, and builds (go, pip, cargo) fill it.
    TMPDIR: setupTmpDir(worktree),
    XDG_CACHE_HOME: path.join(worktree.setupHome, '.cache'),
    XDG_CONFIG_HOME: path.join(worktree.setupHome, '.config'),
    CI: 'true',
    ...cacheVars,
  };
}
