/**
 * The environment of a harness git process, built from a whitelist, never from the
 * worker's own environment minus known-bad names: whatever git starts (a planted hook,
 * an ssh command, a filter driver) inherits it, so it must hold nothing worth stealing
 * and nothing that redirects git (GIT_DIR, GIT_SSH_COMMAND, GIT_CONFIG_GLOBAL ...).
 *
 * Kept: what git needs to find the user's own configuration and keys (PATH, HOME,
 * XDG_CONFIG_HOME, USER, SSH_AUTH_SOCK), the worker's commit identity and the locale. The user's global and system
 * config stay trusted: they are the user's, not the repository's.
 */

import { isAbsolute } from 'node:path';
import { absolutePathEntries } from '../../process/absolute-path.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Forwarded from the worker when set (identity: merge commits need one); everything else is dropped. */
const FORWARDED = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'XDG_CONFIG_HOME',
  'SSH_AUTH_SOCK',
  'TMPDIR',
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
] as const;

/** Constants: non-interactive, parseable, no optional lock-taking on reads. */
const FIXED = {
  LC_ALL: 'C',
  GIT_TERMINAL_PROMPT: '0',
  GIT_OPTIONAL_LOCKS: '0',
  GCM_INTERACTIVE: 'never',
  GIT_PAGER: 'cat',
} as const;

/**
 * What a caller's extra variables may add: git's env-config (the push's auth header as
 * GIT_CONFIG_COUNT/KEY_n/VALUE_n) and the forwarded names. A caller may hand over a
 * whole environment (push does): anything else in it is dropped here.
 */
const ALLOWED_EXTRA_GIT = /^GIT_CONFIG_(COUNT|KEY_\d+|VALUE_\d+)$/;
const FORWARDED_SET: ReadonlySet<string> = new Set(FORWARDED);

/**
 * The one GIT_* variable a caller may set beyond env-config: GIT_INDEX_FILE, for the
 * worktree checkpoints only (a temporary index, so the agent's own index is never
 * touched). It is a separate, explicit option: a GIT_INDEX_FILE inside `extra` (or
 * inherited) is still dropped. Must be an absolute path.
 */
export interface HarnessGitEnvOptions {
  readonly temporaryIndexFile?: string;
}

export function harnessGitEnv(
  parent: Env = process.env,
  extra: Env = {},
  options: HarnessGitEnvOptions = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of FORWARDED) {
    const value = parent[name];
    if (value !== undefined && value !== '') env[name] = value;
  }
  Object.assign(env, FIXED);
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) continue;
    if (ALLOWED_EXTRA_GIT.test(name) || FORWARDED_SET.has(name)) env[name] = value;
  }
  // git runs in the agent's worktree: a relative PATH entry would find the agent's `git` there.
  const pathVar = absolutePathEntries(env['PATH']);
  if (pathVar !== undefined) env['PATH'] = pathVar;
  const index = options.temporaryIndexFile;
  if (index !== undefined) {
    if (!isAbsolute(index)) throw new Error(`temporary index file must be an absolute path: ${index}`);
    env['GIT_INDEX_FILE'] = index;
  }
  return env;
}
