/**
 * The issue source for a run, by kind: the local Markdown store, or GitHub through a
 * connection built from the environment (GITHUB_TOKEN, GITHUB_API_URL,
 * GITHUB_REPOSITORY or the origin remote).
 */
import { createGitHubConnector, type GitHubConnector } from '../github/github-connector.js';
import { requireGitHubToken } from '../github/github-settings.js';
import { createGitHubIssueSource } from './github-issue-source.js';
import type { IssueSourceFactory } from './issue-source.js';
import { createLocalIssueStore } from './local-issue-store.js';

/**
 * `connector` defaults to one built from `env`; pass the same connector to the boundary
 * hook so both share one connection per repository.
 */
export function createIssueSourceFactory(
  env: Readonly<Record<string, string | undefined>>,
  connector?: GitHubConnector,
): IssueSourceFactory {
  const connect = connector ?? createGitHubConnector(env);
  return (kind, repoPath) => {
    switch (kind) {
      case 'local':
        return createLocalIssueStore(repoPath);
      case 'github':
        // Fail at once on a missing token (a clear GITHUB_AUTH) when the connection comes from env.
        if (connector === undefined) requireGitHubToken(env);
        return createGitHubIssueSource(async () => (await connect(repoPath)).client);
    }
  };
}
