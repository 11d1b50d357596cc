/**
 * After a delivery: remove the run's worktree (its commits are safe on the branch or in
 * the base), and delete the branch once the base holds its work. Both look first, so a
 * re-run reports 'already-done'.
 */
import { stat } from 'node:fs/promises';
import type { BoundaryHookInput } from '../../contracts/activities.js';
import { checkpointNamespace } from '../../contracts/worktree-checkpoint.js';
import { git } from '../workspace/git/git.js';
import { removeCheckpoints } from '../workspace/checkpoints/checkpoint-refs.js';
import { removeAgentSandbox } from '../workspace/sandbox-state.js';
import { branchExists, listWorktrees, realOrSelf } from '../workspace/git/repo-queries.js';
import { already, done, failed, type Step } from './boundary-steps.js';

export async function removeWorktree(input: BoundaryHookInput): Promise<Step> {
  const path = await realOrSelf(input.worktreePath);
  const registered = (await listWorktrees(input.repoPath)).find((w) => w.path === path);
  if (!registered || registered.prunable) {
    if (registered?.prunable) await git(input.repoPath, ['worktree', 'prune']);
    if (await directoryExists(input.worktreePath))
      return failed(
        'remove-worktree',
        `${input.worktreePath} exists but is not a registered worktree`,
        `remove ${input.worktreePath}`,
      );
    return already('remove-worktree', `worktree ${input.worktreePath} is already gone${await dropCheckpoints(input)}`);
  }
  // --force also removes ignored build output (node_modules, dist); real changes were
  // ruled out before delivering, and the commits are safe on the branch.
  const result = await git(input.repoPath, ['worktree', 'remove', '--force', input.worktreePath]);
  if (result.exitCode !== 0)
    return failed(
      'remove-worktree',
      result.stderr.trim().split('\n')[0] ?? 'git worktree remove failed',
      `git worktree remove --force ${input.worktreePath}`,
    );
  return done('remove-worktree', `removed worktree ${input.worktreePath}${await dropCheckpoints(input)}`);
}

/**
 * The run's worktree checkpoints (refs and marker) and the agent's private HOME and
 * repository (sandbox-state: what its commands could write) go with its worktree; a
 * failure only shows in the text, and a stale sandbox is swept at a later run's start.
 */
async function dropCheckpoints(input: BoundaryHookInput): Promise<string> {
  await removeAgentSandbox(input.worktreePath).catch(() => undefined);
  try {
    const removed = await removeCheckpoints(input.repoPath, checkpointNamespace(input.workflowId, input.issue));
    return removed.length === 0 ? '' : ` and its ${removed.length} checkpoint ref(s)`;
  } catch (err) {
    return ` (its checkpoint refs were kept: ${err instanceof Error ? err.message : String(err)})`;
  }
}

/** Deletes the branch when `delivered()` says the base holds its work; keeps it otherwise. */
export async function deleteBranch(input: BoundaryHookInput, delivered: () => Promise<boolean>): Promise<Step> {
  if (!(await branchExists(input.repoPath, input.branch)))
    return already('delete-branch', `branch ${input.branch} is already deleted`);
  if (!(await delivered())) {
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

export async function directoryExists(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}
