/**
 * The boundary hook of a run on a remote repository (its `repoPath` a git URL; the hook
 * gets this worker's clone instead). There is no checkout of the user's to put work
 * into: delivery is a push. `branch` pushes the issue branch to the remote (plain push,
 * no force: looks first, so a re-run or a second host finds it already there); `pr` is
 * the GitHub hook on the clone (push, pull request, issue). `merge` and `squash` would
 * move the remote's base without review and are refused by the client; here they fail
 * the delivery with the fix.
 *
 * After delivery the run's checkpoint refs are deleted from the remote
 * (remote-checkpoints.ts) and the worktree is removed from this worker's clone.
 */
import { deliveryModeOf } from '../../contracts/delivery.js';
import type { BoundaryHookInput } from '../../contracts/activities.js';
import type { BoundaryReport } from '../../contracts/run.js';
import { checkpointNamespace } from '../../contracts/worktree-checkpoint.js';
import { gitHubApiUrl } from '../github/github-settings.js';
import { removeRemoteCheckpoints } from '../workspace/remote/remote-checkpoints.js';
import type { RemoteGit } from '../workspace/remote/remote-git.js';
import { statusLines } from '../workspace/git/repo-queries.js';
import { already, done, failed, report, skipped, succeeded, type Step } from './boundary-steps.js';
import { directoryExists, removeWorktree } from './branch-cleanup.js';
import { runGitHubBoundaryHook } from './github-boundary-hook.js';
import { applyIssueEffects, issueEffectNames } from './issue-effects.js';
import { closeLocalIssueOnBranch } from './local-issue-on-branch.js';
import { pushBranch } from './push-branch.js';
import type { BoundaryDeps } from './run-boundary-hook.js';
import { importRunRefs } from '../workspace/private-repo/import-run-refs.js';

export interface RemoteBoundaryDeps extends BoundaryDeps {
  readonly remoteGit: RemoteGit;
}

/** `input.repoPath` is this worker's clone; `url` the run's repository (without credentials). */
export async function runRemoteBoundaryHook(
  deps: RemoteBoundaryDeps,
  input: BoundaryHookInput,
  url: string,
): Promise<BoundaryReport> {
  await importRunRefs(input.worktreePath); // the run's work, from the agent's own repository
  const delivery = deliveryModeOf({ issueSource: input.mode, ...(input.delivery ? { delivery: input.delivery } : {}) });
  switch (delivery) {
    case 'pr': {
      const delivered = await runGitHubBoundaryHook(deps, { ...input, delivery });
      if (delivered.status !== 'success') return delivered;
      const refs = await checkpointRefsStep(deps, input);
      return report([...delivered.effects.map((effect) => ({ effect })), refs], {
        delivery,
        ...(delivered.prUrl === undefined ? {} : { prUrl: delivered.prUrl }),
      });
    }
    case 'merge':
    case 'squash':
      return report(
        [
          failed(
            delivery,
            `${delivery} into the base of a remote repository (${url}) is not done by the agent`,
            'deliver with --deliver branch (the branch is pushed) or pr',
          ),
        ],
        { delivery },
      );
    case 'branch':
      return deliverBranch(deps, input, url);
  }
}

async function deliverBranch(deps: RemoteBoundaryDeps, input: BoundaryHookInput, url: string): Promise<BoundaryReport> {
  const sentence = `The work is on branch \`${input.branch}\` of ${url}; merge it into \`${input.baseBranch}\` there.`;
  const dirty = await uncommittedWork(input);
  // A local issue is a file of the repository: its closing is committed on the branch (local-issue-on-branch.ts).
  const onBranch =
    dirty === undefined && input.mode === 'local' ? await localIssueSteps(deps, input, sentence) : undefined;
  const blocked = onBranch?.some((s) => s.effect.status === 'failed')
    ? skipped('push', `waiting for the issue's closing to be committed on ${input.branch}`)
    : undefined;
  const pushed = dirty ?? blocked ?? (await pushStep(deps, input, url));
  if (!succeeded(pushed)) {
    const steps = [...(onBranch ?? []), pushed];
    const waiting = onBranch === undefined ? ['comment', ...issueEffectNames(input)] : [];
    for (const name of [...waiting, 'checkpoint-refs', 'remove-worktree'])
      steps.push(skipped(name, `waiting for ${input.branch} to be pushed`));
    return report(steps, { delivery: 'branch' });
  }
  const steps: Step[] = [...(onBranch ?? []), pushed];
  if (onBranch === undefined)
    steps.push(...(await applyIssueEffects(deps.issueSource(input.mode, input.repoPath), input, sentence)));
  steps.push(await checkpointRefsStep(deps, input));
  steps.push(await removeWorktree(input));
  return report(steps, {
    delivery: 'branch',
    mergeCommand: `git fetch ${url} ${input.branch} && git merge FETCH_HEAD`,
  });
}

/** A local issue's closing, committed on the branch; a worktree already removed had it committed and pushed. */
async function localIssueSteps(deps: RemoteBoundaryDeps, input: BoundaryHookInput, sentence: string): Promise<Step[]> {
  if (await directoryExists(input.worktreePath))
    return closeLocalIssueOnBranch(deps.issueSource('local', input.worktreePath), input, sentence);
  return [
    already(
      'issue-commit',
      `the worktree was removed after an earlier delivery: the issue's closing is on ${input.branch}`,
    ),
  ];
}

/** A failed `push` step when the worktree holds changes that are not on the branch. */
async function uncommittedWork(input: BoundaryHookInput): Promise<Step | undefined> {
  if (!(await directoryExists(input.worktreePath))) return undefined;
  const dirty = await statusLines(input.worktreePath, { includeUntracked: true });
  if (dirty.length === 0) return undefined;
  return failed(
    'push',
    `the worktree has ${dirty.length} uncommitted change(s) that are not on ${input.branch}: ${dirty[0]?.trim()}`,
    `commit or discard the changes in ${input.worktreePath}, then re-run the delivery`,
  );
}

async function pushStep(deps: RemoteBoundaryDeps, input: BoundaryHookInput, url: string): Promise<Step> {
  const env = deps.env ?? process.env;
  let apiBaseUrl = 'https://api.github.com';
  try {
    apiBaseUrl = gitHubApiUrl(env);
  } catch {
    // Not a GitHub remote's concern: the token is only ever sent to the API's git host.
  }
  const token = env['GITHUB_TOKEN'];
  const step = await pushBranch({
    repoPath: input.repoPath,
    branch: input.branch,
    remote: 'origin',
    apiBaseUrl,
    env,
    ...(token ? { token } : {}),
  });
  return {
    ...step,
    effect: { ...step.effect, detail: deps.remoteGit.redact(step.effect.detail.replace(/\borigin\b/g, url)) },
  };
}

async function checkpointRefsStep(deps: RemoteBoundaryDeps, input: BoundaryHookInput): Promise<Step> {
  const result = await removeRemoteCheckpoints(
    deps.remoteGit,
    input.repoPath,
    checkpointNamespace(input.workflowId, input.issue),
  );
  if (result.error !== undefined)
    return skipped('checkpoint-refs', `the run's checkpoint refs were kept on the remote: ${result.error}`);
  return result.removed === 0
    ? already('checkpoint-refs', 'no checkpoint ref of the run is left on the remote')
    : done('checkpoint-refs', `deleted the run's ${result.removed} checkpoint ref(s) from the remote`);
}
