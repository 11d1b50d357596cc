/**
 * The validators run the commit's own code (its tests, its build rules), in the agent's
 * sandbox, where the run's branch directory is writable: a commit may carry a rule that,
 * once the tests have passed, points the branch elsewhere (`git update-ref`, `git commit`,
 * `git reset`). The validators would then vouch for one commit and the delivery take
 * another, never judged. So the run's branch is read before the validators and again
 * after: a branch that moved fails the closure, unrecoverable (no retry prompt asks an
 * agent to undo its own trick), and its ref is put back to the commit that was judged,
 * so nothing after this can deliver the other.
 */
import type { ConditionResult } from '../../../contracts/activities.js';
import { git } from '../../workspace/git/git.js';

/** The name the result carries among the closure's conditions. */
export const HELD_BRANCH_CHECK = 'run-branch';

export interface JudgedBranch {
  readonly branch: string;
  /** undefined when the ref names no commit (head-on-branch.ts has ended the run then). */
  readonly commit: string | undefined;
}

/** A failed result when the branch moved while the validators ran (the ref put back), else none. */
export async function branchMoved(worktreePath: string, judged: JudgedBranch | undefined): Promise<ConditionResult[]> {
  if (judged?.commit === undefined) return [];
  const now = await commitOf(worktreePath, judged.branch);
  if (now === judged.commit) return [];
  const restored = await git(worktreePath, ['update-ref', `refs/heads/${judged.branch}`, judged.commit]);
  const short = (commit: string | undefined): string => commit?.slice(0, 12) ?? '(nothing)';
  const moved: ConditionResult = {
    validator: HELD_BRANCH_CHECK,
    passed: false,
    summary:
      `a validator's command moved the run's branch ${judged.branch} from ${short(judged.commit)} to ${short(now)} ` +
      `while it ran: the commit the validators judged is not the one that would be delivered. ` +
      (restored.exitCode === 0
        ? `The branch was put back to ${short(judged.commit)}.`
        : `Putting it back failed: ${restored.stderr.trim().split('\n')[0] ?? ''}`),
    params: { branch: judged.branch, judgedCommit: judged.commit, movedTo: now ?? null },
    unrecoverable: true,
  };
  return [moved];
}

async function commitOf(worktreePath: string, branch: string): Promise<string | undefined> {
  const found = await git(worktreePath, ['rev-parse', '--verify', '-q', `refs/heads/${branch}^{commit}`]);
  const commit = found.stdout.trim();
  return found.exitCode === 0 && commit !== '' ? commit : undefined;
}
