/**
 * The local boundary hook: deliver a validated issue branch in the user's own clone
 * (merge into the base, comment + close the local issue, remove the worktree, delete
 * the branch). It runs only after a closure passed validation, and may run again after
 * a crash or retry, so every effect first looks whether it is already done.
 *
 * The user's working tree is sacred: we merge only when the main checkout is on the base
 * branch with no changes to tracked files; otherwise the merge (and everything after it)
 * becomes a pending action and the worktree is kept.
 */
import { stat } from 'node:fs/promises';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import type { BoundaryHookInput, CheckExternalStateInput, IssueSnapshot } from '../../contracts/activities.js';
import type { BoundaryReport } from '../../contracts/run.js';
import type { IssueSource, IssueSourceFactory } from '../issues/issue-source.js';
import { git } from '../workspace/git/git.js';
import { withRepoLock } from '../workspace/git/repo-lock.js';
import {
  branchExists,
  currentBranch,
  isAncestor,
  listWorktrees,
  realOrSelf,
  statusLines,
} from '../workspace/git/repo-queries.js';
import { already, describeError, done, failed, report, skipped, succeeded, type Step } from './boundary-steps.js';
import { closingComment } from './closing-comment.js';

export interface LocalBoundaryDeps {
  readonly issueSource: IssueSourceFactory;
}

export async function runLocalBoundaryHook(deps: LocalBoundaryDeps, input: BoundaryHookInput): Promise<BoundaryReport> {
  if (input.mode !== 'local') {
    throw new AgentError(FailureType.BoundaryFailed, `The local boundary hook cannot deliver a ${input.mode} run`, {
      expected: 'mode local',
    });
  }
  return withRepoLock(input.repoPath, () => deliverLocally(deps, input));
}

async function deliverLocally(deps: LocalBoundaryDeps, input: BoundaryHookInput): Promise<BoundaryReport> {
  const steps: Step[] = [];
  const merge = await mergeBranch(input);
  steps.push(merge);
  if (succeeded(merge)) {
    steps.push(...(await closeIssue(deps, input)));
    const removal = await removeWorktree(input);
    steps.push(removal);
    steps.push(
      succeeded(removal)
        ? await deleteBranch(input)
        : skipped(
            'delete-branch',
            'the worktree still uses the branch',
            `delete branch ${input.branch} after removing its worktree`,
          ),
    );
  } else {
    for (const name of [...(labelsApply(input) ? ['label'] : []), 'close-issue', 'remove-worktree', 'delete-branch'])
      steps.push(skipped(name, `waiting for ${input.branch} to be merged`));
  }
  return report(steps);
}

export async function checkExternalState(
  deps: LocalBoundaryDeps,
  input: CheckExternalStateInput,
): Promise<IssueSnapshot> {
  return deps.issueSource(input.issueSource, input.repoPath).read(input.issue);
}

async function mergeBranch(input: BoundaryHookInput): Promise<Step> {
  const { repoPath, branch, baseBranch } = input;
  if (!(await branchExists(repoPath, branch))) {
    // We delete the branch only after merging it, so a missing branch was delivered before.
    return already('merge', `branch ${branch} no longer exists (merged and deleted earlier)`);
  }
  if (await isAncestor(repoPath, branch, baseBranch))
    return already('merge', `${branch} is already contained in ${baseBranch}`);

  const manual = `in ${repoPath}: git checkout ${baseBranch} && git merge --no-ff ${branch}`;
  if (await worktreeExists(input.worktreePath)) {
    const dirty = await statusLines(input.worktreePath, { includeUntracked: true });
    if (dirty.length > 0)
      return failed(
        'merge',
        `the worktree has ${dirty.length} uncommitted change(s): ${dirty[0]?.trim()}`,
        `commit or discard the changes in ${input.worktreePath}, then merge ${manual}`,
      );
  }
  const checkedOut = await currentBranch(repoPath);
  if (checkedOut !== baseBranch) {
    return skipped(
      'merge',
      `the main checkout is on ${checkedOut ?? 'a detached HEAD'}, not ${baseBranch}; left untouched`,
      `merge ${branch} into ${baseBranch} ${manual}`,
    );
  }
  const changed = await statusLines(repoPath, { includeUntracked: false });
  if (changed.length > 0) {
    return skipped(
      'merge',
      `the main checkout has ${changed.length} uncommitted change(s) to tracked files; left untouched`,
      `commit or stash your changes, then merge ${manual}`,
    );
  }
  const message = `Merge branch '${branch}' (issue #${input.issue})`;
  const result = await git(repoPath, ['merge', '--no-ff', '--no-edit', '-m', message, branch]);
  if (result.exitCode !== 0) {
    await git(repoPath, ['merge', '--abort']);
    const why =
      (result.stdout + result.stderr).split('\n').find((l) => /conflict|error|fatal/i.test(l)) ??
      `exit ${result.exitCode}`;
    return failed(
      'merge',
      `merging ${branch} into ${baseBranch} failed: ${why.trim()}`,
      `resolve the conflict and merge ${manual}`,
    );
  }
  return done('merge', `merged ${branch} into ${baseBranch}`);
}

/** Comment, then (label-only / label-and-close) the completion labels, then (close / label-and-close) close. */
async function closeIssue(deps: LocalBoundaryDeps, input: BoundaryHookInput): Promise<Step[]> {
  const issues = deps.issueSource(input.mode, input.repoPath);
  const text = closingComment({
    workflowId: input.workflowId,
    branch: input.branch,
    summary: input.summary,
    evidence: input.evidence,
  });
  const steps: Step[] = [];
  try {
    const commented = await issues.comment(input.issue, text, { idempotencyKey: `${input.workflowId}:close` });
    steps.push(
      commented === 'added'
        ? done('comment', `commented on issue #${input.issue}`)
        : already('comment', `closing comment already on issue #${input.issue}`),
    );
  } catch (error) {
    // The comment explains the close: without it, labels and close wait for a re-run.
    steps.push(failed('comment', describeError(error), `comment on issue #${input.issue}, then label/close it`));
    for (const name of [...(labelsApply(input) ? ['label'] : []), 'close-issue'])
      steps.push(skipped(name, 'waiting for the closing comment'));
    return steps;
  }
  if (labelsApply(input)) steps.push(await relabel(issues, input));
  switch (input.closureAction) {
    case 'close':
    case 'label-and-close':
      try {
        const closed = await issues.close(input.issue);
        steps.push(
          closed === 'closed'
            ? done('close-issue', `closed issue #${input.issue}`)
            : already('close-issue', `issue #${input.issue} was already closed`),
        );
      } catch (error) {
        steps.push(failed('close-issue', describeError(error), `close issue #${input.issue}`));
      }
      break;
    case 'label-only':
      steps.push(skipped('close-issue', 'closure action is label-only: the issue stays open'));
      break;
  }
  return steps;
}

const labelsApply = (input: BoundaryHookInput): boolean =>
  input.closureAction === 'label-only' || input.closureAction === 'label-and-close';

/** Adds and removes the completion labels; labels to remove that the issue lacks are skipped. */
async function relabel(issues: IssueSource, input: BoundaryHookInput): Promise<Step> {
  const { add, remove } = input.labels;
  if (add.length === 0 && remove.length === 0) return skipped('label', 'no completion labels configured');
  try {
    const before = (await issues.read(input.issue)).labels;
    const after = await issues.relabel(input.issue, { add, remove });
    const added = after.filter((l) => !before.includes(l));
    const removed = before.filter((l) => !after.includes(l));
    if (added.length === 0 && removed.length === 0)
      return already('label', `labels of issue #${input.issue} are already set`);
    const parts = [
      added.length ? `added ${added.join(', ')}` : '',
      removed.length ? `removed ${removed.join(', ')}` : '',
    ].filter(Boolean);
    return done('label', `${parts.join('; ')} on issue #${input.issue}`);
  } catch (error) {
    return failed(
      'label',
      describeError(error),
      `set the labels of issue #${input.issue}: add ${add.join(', ') || '-'}, remove ${remove.join(', ') || '-'}`,
    );
  }
}

async function removeWorktree(input: BoundaryHookInput): Promise<Step> {
  const path = await realOrSelf(input.worktreePath);
  const registered = (await listWorktrees(input.repoPath)).find((w) => w.path === path);
  if (!registered || registered.prunable) {
    if (registered?.prunable) await git(input.repoPath, ['worktree', 'prune']);
    if (await worktreeExists(input.worktreePath))
      return failed(
        'remove-worktree',
        `${input.worktreePath} exists but is not a registered worktree`,
        `remove ${input.worktreePath}`,
      );
    return already('remove-worktree', `worktree ${input.worktreePath} is already gone`);
  }
  // --force also removes ignored build output (node_modules, dist); real changes were
  // ruled out before merging, and the merged commits are safe in the base branch.
  const result = await git(input.repoPath, ['worktree', 'remove', '--force', input.worktreePath]);
  if (result.exitCode !== 0)
    return failed(
      'remove-worktree',
      result.stderr.trim().split('\n')[0] ?? 'git worktree remove failed',
      `git worktree remove --force ${input.worktreePath}`,
    );
  return done('remove-worktree', `removed worktree ${input.worktreePath}`);
}

async function deleteBranch(input: BoundaryHookInput): Promise<Step> {
  if (!(await branchExists(input.repoPath, input.branch)))
    return already('delete-branch', `branch ${input.branch} is already deleted`);
  if (!(await isAncestor(input.repoPath, input.branch, input.baseBranch))) {
    return failed(
      'delete-branch',
      `${input.branch} has commits not in ${input.baseBranch}; kept`,
      `merge or delete ${input.branch}`,
    );
  }
  const result = await git(input.repoPath, ['branch', '-D', input.branch]);
  if (result.exitCode !== 0)
    return failed(
      'delete-branch',
      result.stderr.trim().split('\n')[0] ?? 'git branch -D failed',
      `git branch -D ${input.branch}`,
    );
  return done('delete-branch', `deleted branch ${input.branch}`);
}

async function worktreeExists(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}
