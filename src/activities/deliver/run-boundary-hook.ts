/**
 * The boundary hook the activity calls, by the delivery the user chose: `pr` is the
 * GitHub hook (push, pull request, GitHub issue); `branch`, `merge` and `squash` are
 * the local hook (keep the branch, or put it into the base in the user's clone, then
 * the issue effects through the run's issue source). An input without a delivery
 * (scheduled before it was a choice) gets the default for its issue source. `boundaryDepsFromEnv` builds both from the worker's
 * environment with one shared GitHub connection per repository.
 */
import type { BoundaryHookInput } from '../../contracts/activities.js';
import { deliveryModeOf } from '../../contracts/delivery.js';
import type { BoundaryReport } from '../../contracts/run.js';
import { createGitHubConnector, type GitHubConnectorOptions } from '../github/github-connector.js';
import { createIssueSourceFactory } from '../issues/issue-source-factory.js';
import { runGitHubBoundaryHook, type GitHubBoundaryDeps } from './github-boundary-hook.js';
import { runLocalBoundaryHook, type LocalBoundaryDeps } from './local-boundary-hook.js';

export interface BoundaryDeps extends LocalBoundaryDeps, GitHubBoundaryDeps {}

export async function runBoundaryHook(deps: BoundaryDeps, input: BoundaryHookInput): Promise<BoundaryReport> {
  const delivery = deliveryModeOf({ issueSource: input.mode, ...(input.delivery ? { delivery: input.delivery } : {}) });
  switch (delivery) {
    case 'pr':
      return runGitHubBoundaryHook(deps, { ...input, delivery });
    case 'branch':
    case 'merge':
    case 'squash':
      return runLocalBoundaryHook(deps, { ...input, delivery });
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
