/**
 * The boundary hook the activity calls: the local hook (merge in the user's clone,
 * local issue store) or the GitHub hook (push, pull request, GitHub issue), by the
 * run's issue-source mode. `boundaryDepsFromEnv` builds both from the worker's
 * environment with one shared GitHub connection per repository.
 */
import type { BoundaryHookInput } from '../../contracts/activities.js';
import type { BoundaryReport } from '../../contracts/run.js';
import { createGitHubConnector, type GitHubConnectorOptions } from '../github/github-connector.js';
import { createIssueSourceFactory } from '../issues/issue-source-factory.js';
import { runGitHubBoundaryHook, type GitHubBoundaryDeps } from './github-boundary-hook.js';
import { runLocalBoundaryHook, type LocalBoundaryDeps } from './local-boundary-hook.js';

export interface BoundaryDeps extends LocalBoundaryDeps, GitHubBoundaryDeps {}

export async function runBoundaryHook(deps: BoundaryDeps, input: BoundaryHookInput): Promise<BoundaryReport> {
  switch (input.mode) {
    case 'local':
      return runLocalBoundaryHook(deps, input);
    case 'github':
      return runGitHubBoundaryHook(deps, input);
  }
}

/** Issue sources (local + GitHub) and the GitHub connection, all from one environment. */
export function boundaryDepsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  options: GitHubConnectorOptions = {},
): BoundaryDeps {
  const gitHub = createGitHubConnector(env, options);
  return { issueSource: createIssueSourceFactory(env, gitHub), gitHub, env };
}
