/**
 * The github tool's backend for one step, from the activity's ports: the run's issue
 * source (local store or GitHub) and, for GitHub runs, the worker's connection for pull
 * requests. Nothing here is handed to the agent's processes; the tool returns text.
 */
import type { StepToolSettings } from '../../contracts/activities.js';
import type { GitHubConnector } from '../github/github-connector.js';
import type { IssueSourceFactory } from '../issues/issue-source.js';
import { createGitHubToolBackend, type GitHubToolBackend } from './github-tool-backend.js';

export interface GitHubToolPorts {
  readonly issueSource: IssueSourceFactory;
  readonly boundary: { readonly gitHub: GitHubConnector };
}

/** `{ github }` for QueryStepDeps when the agent integrates GitHub, else `{}`. */
export function githubToolFor(
  ports: GitHubToolPorts,
  settings: StepToolSettings | undefined,
  redact: (text: string) => string,
): { github?: GitHubToolBackend } {
  if (settings?.github === undefined) return {};
  const { issueSource, repoPath } = settings;
  return {
    github: createGitHubToolBackend({
      kind: issueSource,
      // Built lazily by the factory: a step that never calls the tool opens no connection.
      issues: issueSource === 'github' ? lazyIssues(ports, repoPath) : ports.issueSource('local', repoPath),
      ...(issueSource === 'github' ? { port: async () => (await ports.boundary.gitHub(repoPath)).client } : {}),
      declaredLabels: settings.github.labels,
      redact,
    }),
  };
}

/** The GitHub issue source, created on first use (creating it checks the token). */
function lazyIssues(ports: GitHubToolPorts, repoPath: string): ReturnType<IssueSourceFactory> {
  let source: ReturnType<IssueSourceFactory> | undefined;
  const get = (): ReturnType<IssueSourceFactory> => (source ??= ports.issueSource('github', repoPath));
  return {
    read: (n) => get().read(n),
    list: (f) => get().list(f),
    close: (n) => get().close(n),
    relabel: (n, c) => get().relabel(n, c),
    comment: (n, t, o) => get().comment(n, t, o),
  };
}
