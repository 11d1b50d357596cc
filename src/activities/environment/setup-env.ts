/**
 * The environment setup commands run with: the worker's own (for PATH, certificates,
 * proxies and toolchain roots) minus every credential and service address, with a
 * private HOME instead of the worker's (no ~/.npmrc token, ~/.git-credentials or gh
 * config), and the shared caches named explicitly so installs are reused across runs.
 * Setup is networked and unsandboxed, but it runs the repository's own code at the
 * base commit (like a user's `npm ci`), never code the agent wrote, and sees no secret.
 */
import os from 'node:os';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { isSecretName } from '../tools/sandbox-env.js';
import type { CacheLayout, WorktreeLayout } from './cache-layout.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Where packages come from: kept when set, unless a credential is written into the URL. */
const REGISTRY_POINTERS = new Set([
  'PIP_INDEX_URL',
  'PIP_EXTRA_INDEX_URL',
  'UV_INDEX_URL',
  'UV_DEFAULT_INDEX',
  'UV_EXTRA_INDEX_URL',
  'NPM_CONFIG_REGISTRY',
  'npm_config_registry',
]);
const USERINFO = /:\/\/[^/\s]*@/;

/** The worker's per-user state, replaced or dropped; npm's own `npm_*` of a parent `npm run`. */
const DROPPED = /^(HOME|USERPROFILE|XDG_[A-Z_]+|npm_.*|NODE_TEST_CONTEXT|NODE_CHANNEL_FD|NODE_UNIQUE_ID|VIRTUAL_ENV)$/;

/** Toolchain roots that default to $HOME: kept pointing at the worker's installs. */
const HOME_TOOLCHAINS = [
  ['PYENV_ROOT', '.pyenv'],
  ['RUSTUP_HOME', '.rustup'],
  ['NVM_DIR', '.nvm'],
] as const;

export function isCredentialFree(name: string, value: string): boolean {
  if (REGISTRY_POINTERS.has(name)) return !USERINFO.test(value);
  return !isSecretName(name);
}

export function setupEnv(options: {
  readonly source: Env;
  readonly caches: CacheLayout;
  readonly worktree: WorktreeLayout;
  readonly pathPrepend: readonly string[];
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
  return {
    ...env,
    PATH: [...options.pathPrepend, pathVar].join(':'),
    HOME: worktree.setupHome,
    XDG_CACHE_HOME: path.join(worktree.setupHome, '.cache'),
    XDG_CONFIG_HOME: path.join(worktree.setupHome, '.config'),
    CI: 'true',
    npm_config_cache: caches.npm,
    npm_config_store_dir: caches.pnpmStore,
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    YARN_CACHE_FOLDER: caches.yarnClassic,
    YARN_GLOBAL_FOLDER: caches.yarnBerry,
    YARN_ENABLE_TELEMETRY: '0',
    BUN_INSTALL_CACHE_DIR: caches.bun,
    PIP_CACHE_DIR: caches.pip,
    PIP_DISABLE_PIP_VERSION_CHECK: '1',
    UV_CACHE_DIR: caches.uv,
    // uv hardlinks from its cache by default: the agent could then write into the cache.
    UV_LINK_MODE: 'copy',
    POETRY_CACHE_DIR: caches.poetry,
    PDM_CACHE_DIR: caches.pdm,
    PDM_CHECK_UPDATE: 'false',
    GOMODCACHE: caches.goMod,
    GOCACHE: caches.goBuild,
    GOPATH: path.join(worktree.setupHome, 'go'),
    CARGO_HOME: caches.cargoHome,
    // Maven has no variable for its local repository: a system property, after the worker's own options.
    MAVEN_OPTS: [env['MAVEN_OPTS'], `-Dmaven.repo.local=${caches.mavenRepo}`].filter(Boolean).join(' '),
    MAVEN_USER_HOME: caches.maven,
  };
}
