/**
 * The validators judge HEAD; the delivery delivers the run's branch. The agent can move
 * HEAD (`git checkout -b agent/side`, `git checkout --detach`: the branch's ref directory
 * is writable to it) and commit the fix there, leaving the run's branch with a comment:
 * the clean-tree check and the tests pass on the fix, and the branch delivered and the
 * issue closed have none of it (stranger-62's G2). So before the validators run, HEAD is
 * pointed back at the run's branch, leaving the worktree and the index as they are:
 * whatever the branch lacks then shows as an uncommitted change, and the retry prompt
 * asks the agent to commit it, on the run's branch.
 *
 * The shell part below runs in the same harness git call as the index's rebuild
 * (pin-the-commit.ts): in an agent's worktree each call is a sandbox launch.
 */
import { AgentError } from '../../../contracts/errors.js';
import { FailureType } from '../../../contracts/failures.js';

export interface HeadMoved {
  /** The branch HEAD was on; absent when it was detached. */
  readonly from?: string;
  /** The run's branch. */
  readonly to: string;
}

/**
 * `$1`: the run's branch, or empty (a worktree made outside a run: nothing is moved).
 * Prints `at <HEAD's ref or nothing>`, `commit <the branch's commit or nothing>`, and
 * `moved` when HEAD was pointed back; exits 4 when the branch names no commit and HEAD is
 * elsewhere (nothing on it can be judged).
 */
export const HEAD_ON_BRANCH_SCRIPT = `
branch="$1"
at=$(git symbolic-ref -q HEAD) || at=""
printf 'at %s\\n' "$at"
if [ -n "$branch" ]; then
  ref="refs/heads/$branch"
  commit=$(git rev-parse --verify -q "$ref^{commit}") || commit=""
  printf 'commit %s\\n' "$commit"
  if [ "$at" != "$ref" ]; then
    [ -n "$commit" ] || exit 4
    git symbolic-ref HEAD "$ref" && printf 'moved\\n'
  fi
fi
`;

export interface HeadLines {
  readonly at: string | undefined;
  readonly commit: string | undefined;
  readonly moved: boolean;
}

/** The script's lines, read. PURE. */
export function readHeadLines(lines: readonly string[]): HeadLines {
  const value = (key: string): string | undefined => {
    const line = lines.find((l) => l.startsWith(`${key} `));
    const found = line?.slice(key.length + 1).trim();
    return found === undefined || found === '' ? undefined : found;
  };
  return { at: value('at'), commit: value('commit'), moved: lines.includes('moved') };
}

/** Where HEAD was, when the script moved it. */
export function headMovedOf(branch: string, head: HeadLines): HeadMoved | undefined {
  if (!head.moved) return undefined;
  return { ...(head.at === undefined ? {} : { from: head.at.replace(/^refs\/heads\//, '') }), to: branch };
}

/**
 * The run's branch no longer names a commit (a command emptied or removed its ref file):
 * nothing on it can be judged or delivered, so the run ends here rather than judge
 * wherever HEAD is (stranger-63's G7: the validators passed on another branch and the
 * delivery found the emptied branch "already contained" in the base, and closed the issue).
 */
export function branchGone(branch: string, head: string | undefined): AgentError {
  return new AgentError(
    FailureType.WorktreeFailed,
    `the run's branch ${branch} no longer names a commit in the run's repository (a command emptied or removed its ref, or wrote something else than a commit into it; HEAD is ${head === undefined ? 'detached' : `on ${head.replace(/^refs\/heads\//, '')}`}): nothing on it can be validated or delivered`,
    {
      where: `refs/heads/${branch}`,
      expected: "the run's branch as the run's commits left it: no command may rewrite, empty or delete its ref",
    },
  );
}
