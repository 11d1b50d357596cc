/**
 * One GitHubWatchPort per target repository, built from the environment on first use
 * (GITHUB_TOKEN, GITHUB_API_URL, GITHUB_REPOSITORY or the origin remote, exactly as the
 * issue source reads them) and reused. A missing token is reported when a GitHub
 * repository is first watched, so a worker serving only local issues needs none.
 */
import type { GitHubWatchPort } from '../github/github-watch-port.js';
import { gitHubSettingsFromEnv } from '../github/github-settings.js';
import type { WatchClientOptions } from '../github/octokit-watch-client.js';

export type WatchConnector = (repoPath: string) => Promise<GitHubWatchPort>;

export function createWatchConnector(
  env: Readonly<Record<string, string | undefined>>,
  createClient?: (options: WatchClientOptions) => GitHubWatchPort,
): WatchConnector {
  const cache = new Map<string, Promise<GitHubWatchPort>>();
  return (repoPath) => {
    let port = cache.get(repoPath);
    if (port === undefined) {
      port = (async () => {
        const settings = await gitHubSettingsFromEnv(env, repoPath);
        const build = createClient ?? (await import('../github/octokit-watch-client.js')).createGitHubWatchClient;
        return build({ token: settings.token, owner: settings.owner, repo: settings.repo, baseUrl: settings.baseUrl });
      })();
      port.catch(() => cache.delete(repoPath));
      cache.set(repoPath, port);
    }
    return port;
  };
}
