/**
 * One GitHub connection per target repository, built from the environment on first
 * use and then reused (the settings need a `git remote` call; the client keeps its
 * HTTP agent). Shared by the github issue source and the GitHub boundary hook so both
 * talk to the same repository with the same token.
 *
 * A missing GITHUB_TOKEN is reported when a connection is asked for, not when the
 * connector is built: a worker serving only local runs needs no token.
 */
import type { GitHubPort } from './github-port.js';
import { gitHubSettingsFromEnv, type GitHubSettings } from './github-settings.js';
import type { GitHubClientOptions } from './octokit-github-client.js';

/** @octokit/rest (~0.1 s to import) loads with the first GitHub connection: local runs never need it. */
async function createOctokitClient(options: GitHubClientOptions): Promise<GitHubPort> {
  const { createGitHubClient } = await import('./octokit-github-client.js');
  return createGitHubClient(options);
}

export interface GitHubConnection {
  /** Token is non-enumerable (see github-settings.ts). */
  readonly settings: GitHubSettings;
  readonly client: GitHubPort;
}

/** Resolves the connection for the repository at `repoPath`. */
export type GitHubConnector = (repoPath: string) => Promise<GitHubConnection>;

export interface GitHubConnectorOptions {
  /** Overrides client construction (page size in tests, a fake port). */
  readonly createClient?: (options: GitHubClientOptions) => GitHubPort;
  readonly perPage?: number;
}

export function createGitHubConnector(
  env: Readonly<Record<string, string | undefined>>,
  options: GitHubConnectorOptions = {},
): GitHubConnector {
  const cache = new Map<string, Promise<GitHubConnection>>();
  const build = options.createClient ?? createOctokitClient;
  return (repoPath) => {
    let connection = cache.get(repoPath);
    if (connection === undefined) {
      connection = (async () => {
        const settings = await gitHubSettingsFromEnv(env, repoPath);
        const client = await build({
          token: settings.token,
          owner: settings.owner,
          repo: settings.repo,
          baseUrl: settings.baseUrl,
          ...(settings.userAgent === undefined ? {} : { userAgent: settings.userAgent }),
          ...(options.perPage === undefined ? {} : { perPage: options.perPage }),
        });
        return { settings, client };
      })();
      // A failed lookup (no token yet, no remote yet) must not be remembered.
      connection.catch(() => cache.delete(repoPath));
      cache.set(repoPath, connection);
    }
    return connection;
  };
}
