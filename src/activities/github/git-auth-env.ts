/**
 * How the GitHub token reaches git for a push, and only git, and only for GitHub:
 * an `http.<origin>/.extraheader` setting passed through git's GIT_CONFIG_COUNT /
 * GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n environment (git ≥ 2.31). Unlike
 * `-c key=value` it is not in argv (world-readable in /proc, and echoed in errors);
 * unlike a credential store it is never written to disk; and being scoped to the
 * remote's origin, it is not sent to any other host (a redirect, a submodule).
 *
 * The token is sent only over https and only to the host that serves the configured
 * API (github.com for api.github.com; the same host for GitHub Enterprise). File and
 * ssh remotes get no token: ssh authenticates with the worker's own keys.
 */
import { scrubbedEnv } from '../process/scrubbed-env.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The git host for an API URL: `api.github.com` → `github.com`; GHES serves both on one host. */
export function gitHostForApi(apiBaseUrl: string): string | undefined {
  try {
    return new URL(apiBaseUrl).hostname.replace(/^api\./, '').toLowerCase();
  } catch {
    return undefined;
  }
}

/** The remote's origin (`https://host[:port]`) when the token may be sent to it, else undefined. */
export function tokenOrigin(remoteUrl: string, apiBaseUrl: string): string | undefined {
  let remote: URL;
  try {
    remote = new URL(remoteUrl.trim());
  } catch {
    return undefined; // scp-like ssh (git@host:o/r.git) or a local path
  }
  if (remote.protocol !== 'https:') return undefined;
  return remote.hostname.toLowerCase() === gitHostForApi(apiBaseUrl) ? remote.origin : undefined;
}

/** GIT_CONFIG_* variables carrying the auth header for `origin`, appended after any the parent set. */
export function gitAuthConfigEnv(origin: string, token: string, parent: Env): Record<string, string> {
  const start = Number.parseInt(parent['GIT_CONFIG_COUNT'] ?? '0', 10);
  const index = Number.isSafeInteger(start) && start >= 0 ? start : 0;
  const basic = Buffer.from(`x-access-token:${token}`, 'utf8').toString('base64');
  return {
    GIT_CONFIG_COUNT: String(index + 1),
    [`GIT_CONFIG_KEY_${index}`]: `http.${origin}/.extraheader`,
    [`GIT_CONFIG_VALUE_${index}`]: `AUTHORIZATION: basic ${basic}`,
  };
}

/**
 * The complete environment for a git process that talks to the remote: the worker's
 * environment without its secrets (hooks, ssh and helpers git starts inherit it), the
 * ssh agent socket kept for ssh remotes, prompts off, locale pinned, plus the auth
 * header when the remote qualifies.
 */
export function remoteGitEnv(
  parent: Env,
  remoteUrl: string,
  auth: { readonly token?: string; readonly apiBaseUrl: string },
): Record<string, string> {
  const env: Record<string, string> = {
    ...scrubbedEnv(parent),
    LC_ALL: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GCM_INTERACTIVE: 'never',
  };
  const sshAgent = parent['SSH_AUTH_SOCK'];
  if (sshAgent) env['SSH_AUTH_SOCK'] = sshAgent;
  // The operator's own GIT_CONFIG_KEY_n entries match the scrubber's KEY pattern: restore
  // them, they are git configuration meant for git.
  const count = Number.parseInt(parent['GIT_CONFIG_COUNT'] ?? '0', 10);
  for (let i = 0; Number.isSafeInteger(count) && i < count; i++) {
    for (const name of [`GIT_CONFIG_KEY_${i}`, `GIT_CONFIG_VALUE_${i}`]) {
      const value = parent[name];
      if (value !== undefined) env[name] = value;
    }
  }
  for (const name of Object.keys(env)) if (/^GIT_TRACE/.test(name)) delete env[name]; // traces could dump headers
  const origin = auth.token ? tokenOrigin(remoteUrl, auth.apiBaseUrl) : undefined;
  return origin && auth.token ? { ...env, ...gitAuthConfigEnv(origin, auth.token, env) } : env;
}
