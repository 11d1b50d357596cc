/**
 * The label catalog for a repository, by issue source: the local labels file, or
 * GitHub's repository labels through the same connector the issue source uses.
 */
import { createGitHubConnector, type GitHubConnector } from '../github/github-connector.js';
import { requireGitHubToken } from '../github/github-settings.js';
import { createGitHubLabelCatalog } from './github-label-catalog.js';
import type { LabelCatalogFactory } from './label-catalog.js';
import { createLocalLabelCatalog } from './local-label-catalog.js';

export function createLabelCatalogFactory(
  env: Readonly<Record<string, string | undefined>>,
  connector?: GitHubConnector,
): LabelCatalogFactory {
  const connect = connector ?? createGitHubConnector(env);
  return (kind, repoPath) => {
    switch (kind) {
      case 'local':
        return createLocalLabelCatalog(repoPath);
      case 'github':
        if (connector === undefined) requireGitHubToken(env);
        return createGitHubLabelCatalog(async () => (await connect(repoPath)).client, `GitHub labels of ${repoPath}`);
    }
  };
}
