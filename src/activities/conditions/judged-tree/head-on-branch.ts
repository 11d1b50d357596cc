/**
 * The validators judge HEAD; the delivery delivers the run's branch. The agent can move
 * HEAD (`git checkout -b agent/side`, `git checkout --detach`: the branch's ref directory
 * is writable to it) and commit the fix there, leaving the run's branch with a comment:
 * the clean-tree check and the tests pass on the fix, and the branch delivered and the
 * issue closed have none of it (stranger-62's G2). So before the validators run, HEAD is
 * pointed back at the run's branch, leaving the worktree and the index as they are:
 * whatever the branch lacks then shows as an uncommitted change, and the retry prompt
 * asks the agent to commit it, on the run's branch.
 */
import { AgentError } from '../../../contracts/errors.js';
import { FailureType } from '../../../contracts/failures.js';
import { git } from '../../workspace/git/git.js';
import { recordedRunBranch } from '../../workspace/run-refs.js';

export interface HeadMoved {
  /** The branch HEAD was on; absent when it was detached. */
  readonly from?: string;
  /** The run's branch. */
  readonly to: string;
}

/** Puts HEAD back on the run's branch; says from where when it moved it. */
export async function headOnRunBranch(worktreePath: string): Promise<HeadMoved | undefined> {
  const branch = recordedRunBranch(worktreePath);
  if (branch === undefined) return undefined;
  const ref = `refs/heads/${branch}`;
  const head = await git(worktreePath, ['symbolic-ref', '-q', 'HEAD']);
  const at = head.exitCode === 0 ? head.stdout.trim() : undefined;
  if (at === ref) return undefined;
  const exists = await git(worktreePath, ['rev-parse', '--verify', '-q', `${ref}^{commit}`]);
  if (exists.exitCode !== 0) throw branchGone(branch, at);
  const moved = await git(worktreePath, ['symbolic-ref', 'HEAD', ref]);
  if (moved.exitCode !== 0) return undefined;
  return { ...(at === undefined ? {} : { from: at.replace(/^refs\/heads\//, '') }), to: branch };
}

/**
 * The run's branch no longer names a commit (a command emptied or removed its ref file):
 * nothing on it can be judged or delivered, so the run ends here rather than judge
 * wherever HEAD is (stranger-63's G7: the validators passed on another branch and the
 * delivery found the emptied branch "already contained" in the base, and closed the issue).
 */
function branchGone(branch: string, head: string | undefined): AgentError {
  return new AgentError(
    FailureType.WorktreeFailed,
    `the run's branch ${branch} no longer names a commit in the run's repository (a command emptied or removed its ref, or wrote something else than a commit into it; HEAD is ${head === undefined ? 'detached' : `on ${head.replace(/^refs\/heads\//, '')}`}): nothing on it can be validated or delivered`,
    {
      where: `refs/heads/${branch}`,
      expected: "the run's branch as the run's commits left it: no command may rewrite, empty or delete its ref",
    },
  );
}
