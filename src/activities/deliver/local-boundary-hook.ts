/**
 * The local boundary hook: deliver a validated issue branch in the user's own clone, as
 * the user chose (`branch`, `merge` or `squash`), then comment on / label / close the
 * issue (any issue source), remove the worktree and, once the base holds the work,
 * delete the branch. It runs only after a closure passed validation, and may run again
 * after a crash or retry, so every effect first looks whether it is already done.
 *
 * The user's checkout is sacred: `branch` never touches the base; `merge` / `squash`
 * compute the result without a work tree and move the base atomically, and refuse a
 * dirty checkout of the base (merge-into-base.ts). When delivery does not happen,
 * nothing after it does either: the issue stays open and the worktree is kept.
 */
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import { deliveryModeOf, type DeliveryMode } from '../../contracts/delivery.js';
import type { BoundaryHookInput, CheckExternalStateInput, IssueSnapshot } from '../../contracts/activities.js';
import type { BoundaryReport } from '../../contracts/run.js';
import type { IssueSourceFactory } from '../issues/issue-source.js';
import { git } from '../workspace/git/git.js';
import { withRepoLock } from '../workspace/git/repo-lock.js';
import { isAncestor, statusLines } from '../workspace/git/repo-queries.js';
import { already, done, failed, report, skipped, succeeded, type Step } from './boundary-steps.js';
import { deleteBranch, directoryExists, removeWorktree } from './branch-cleanup.js';
import { applyIssueEffects, issueEffectNames } from './issue-effects.js';
import { deliveredIntoBase, mergeIntoBase } from './merge-into-base.js';
import { importRunRefs } from '../workspace/private-repo/import-run-refs.js';

export interface LocalBoundaryDeps {
  readonly issueSource: IssueSourceFactory;
}

type LocalDelivery = Exclude<DeliveryMode, 'pr'>;

export async function runLocalBoundaryHook(deps: LocalBoundaryDeps, input: BoundaryHookInput): Promise<BoundaryReport> {
  await importRunRefs(input.worktreePath); // the run's work, from the agent's own repository
  const delivery = deliveryModeOf({ issueSource: input.mode, ...(input.delivery ? { delivery: input.delivery } : {}) });
  if (delivery === 'pr') {
    throw new AgentError(FailureType.BoundaryFailed, 'The local boundary hook cannot open a pull request', {
      where: '--deliver',
      expected: 'branch, merge or squash (pr is delivered by the GitHub hook, with --issues github)',
    });
  }
  // The worktree's own state (its index) is checked before taking the repository lock:
  // runs sharing a repository queue only for what touches shared state.
  const dirty = await uncommitted(input, delivery);
  if (dirty !== undefined) return notDelivered(input, delivery, dirty);
  return withRepoLock(input.repoPath, () => deliverLocally(deps, input, delivery));
}

function notDelivered(input: BoundaryHookInput, delivery: LocalDelivery, delivered: Step): BoundaryReport {
  const steps: Step[] = [delivered];
  for (const name of ['comment', ...issueEffectNames(input), 'remove-worktree'])
    steps.push(skipped(name, `waiting for ${input.branch} to be delivered`));
  return report(steps, { delivery });
}

async function deliverLocally(
  deps: LocalBoundaryDeps,
  input: BoundaryHookInput,
  delivery: LocalDelivery,
): Promise<BoundaryReport> {
  const delivered = await deliver(input, delivery);
  if (!succeeded(delivered)) return notDelivered(input, delivery, delivered);
  const steps: Step[] = [delivered];
  const mergeCommand = delivery === 'branch' ? `git merge ${input.branch}` : undefined;
  const issues = deps.issueSource(input.mode, input.repoPath);
  steps.push(...(await applyIssueEffects(issues, input, deliveredSentence(input, delivery))));
  steps.push(await removeWorktree(input));
  if (delivery !== 'branch') {
    const request = intoBase(input, delivery);
    steps.push(
      await deleteBranch(input, async () => {
        const head = await git(input.repoPath, ['rev-parse', '--verify', '--quiet', `refs/heads/${input.branch}`]);
        return head.exitCode === 0 && (await deliveredIntoBase(request, head.stdout.trim()));
      }),
    );
  }
  return report(steps, { delivery, ...(mergeCommand ? { mergeCommand } : {}) });
}

export async function checkExternalState(
  deps: LocalBoundaryDeps,
  input: CheckExternalStateInput,
): Promise<IssueSnapshot> {
  return deps.issueSource(input.issueSource, input.repoPath).read(input.issue);
}

/** The failed delivery step when the worktree has uncommitted changes, else undefined. */
async function uncommitted(input: BoundaryHookInput, delivery: LocalDelivery): Promise<Step | undefined> {
  if (!(await directoryExists(input.worktreePath))) return undefined;
  const dirty = await statusLines(input.worktreePath, { includeUntracked: true });
  if (dirty.length === 0) return undefined;
  return failed(
    delivery === 'branch' ? 'keep-branch' : delivery,
    `the worktree has ${dirty.length} uncommitted change(s) that are not on ${input.branch}: ${dirty[0]?.trim()}`,
    `commit or discard the changes in ${input.worktreePath}, then re-run the delivery`,
  );
}

async function deliver(input: BoundaryHookInput, delivery: LocalDelivery): Promise<Step> {
  switch (delivery) {
    case 'branch':
      return keepBranch(input);
    case 'merge':
    case 'squash':
      return mergeIntoBase(intoBase(input, delivery));
  }
}

const intoBase = (input: BoundaryHookInput, strategy: 'merge' | 'squash') => ({
  repoPath: input.repoPath,
  branch: input.branch,
  baseBranch: input.baseBranch,
  issue: input.issue,
  strategy,
});

/** `branch` delivery: the branch is the result; the base is not touched. */
async function keepBranch(input: BoundaryHookInput): Promise<Step> {
  const { repoPath, branch, baseBranch } = input;
  const head = await git(repoPath, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`]);
  if (head.exitCode !== 0)
    return already('keep-branch', `branch ${branch} no longer exists (merged or deleted since the run)`);
  if (await isAncestor(repoPath, branch, baseBranch))
    return already('keep-branch', `${branch} is already contained in ${baseBranch}`);
  const ahead = await git(repoPath, ['rev-list', '--count', `${baseBranch}..${branch}`]);
  return done(
    'keep-branch',
    `kept ${branch} at ${head.stdout.trim().slice(0, 12)} (${ahead.stdout.trim() || '?'} commit(s) ahead of ${baseBranch}); ${baseBranch} is unchanged; to merge it, in ${repoPath} on ${baseBranch}: git merge ${branch}`,
  );
}

function deliveredSentence(input: BoundaryHookInput, delivery: LocalDelivery): string {
  switch (delivery) {
    case 'branch':
      return `The work is on branch \`${input.branch}\`; merge it with \`git merge ${input.branch}\` on \`${input.baseBranch}\`.`;
    case 'merge':
      return `Merged into \`${input.baseBranch}\`.`;
    case 'squash':
      return `Squashed into \`${input.baseBranch}\`.`;
  }
}
