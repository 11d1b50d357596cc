/**
 * The LabelCatalog over GitHub's repository labels, through the GitHub port (the
 * connection is asked for on first use, so building the catalog needs no network).
 */
import type { GitHubPort } from '../github/github-port.js';
import type { LabelCatalog } from './label-catalog.js';

export type GitHubLabelPort = Pick<GitHubPort, 'owner' | 'repo' | 'listLabels' | 'createLabel' | 'updateLabel'>;

export function createGitHubLabelCatalog(connect: () => Promise<GitHubLabelPort>, where: string): LabelCatalog {
  return {
    where,
    async list() {
      const labels = await (await connect()).listLabels();
      return labels.map((l) => ({ name: l.name, color: l.color.toLowerCase(), description: l.description }));
    },
    async create(label) {
      await (await connect()).createLabel(label);
    },
    async update(label) {
      await (await connect()).updateLabel(label);
    },
  };
}
