/**
 * The validators run the commit's own code (its tests, its build rules), in the agent's
 * sandbox, where the run's branch directory is writable: a commit may carry a rule that,
 * once the tests have passed, points the branch elsewhere (`git update-ref`, `git commit`,
 * `git reset`). The validators would then vouch for one commit and the delivery take
 * another, never judged. So the run's branch is read before the validators and again
 * after: a branch that moved fails the closure, unrecoverable (no retry prompt asks an
 * agent to undo its own trick), and its ref is put back to the commit that was judged,
 * so nothing after this can deliver the other. A move that took the files along (`git
 * reset --hard`) is undone in the worktree too, as a checkout from the one commit to the
 * other would (`read-tree -m -u`: a local change it would overwrite stops it), so the
 * kept worktree is the judged commit's.
 */
import type { ConditionResult } from '../../../contracts/activities.js';
import { gitScript } from '../../workspace/git/git.js';
import { resolveCommit } from '../../workspace/git/repo-queries.js';

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
  const now = await resolveCommit(worktreePath, `refs/heads/${judged.branch}`);
  if (now === judged.commit) return [];
  const restored = await gitScript(worktreePath, PUT_BACK_SCRIPT, [judged.branch, judged.commit, now ?? '']);
  const short = (commit: string | undefined): string => commit?.slice(0, 12) ?? '(nothing)';
  const why = restored.stderr.trim().split('\n')[0] ?? '';
  const moved: ConditionResult = {
    validator: HELD_BRANCH_CHECK,
    passed: false,
    summary:
      `a validator's command moved the run's branch ${judged.branch} from ${short(judged.commit)} to ${short(now)} ` +
      `while it ran: the commit the validators judged is not the one that would be delivered. ` +
      (restored.exitCode === 0
        ? `The branch and the worktree were put back to ${short(judged.commit)}.`
        : restored.exitCode === FILES_LEFT
          ? `The branch was put back to ${short(judged.commit)}; the worktree's files were not (${why}).`
          : `Putting it back failed: ${why}`),
    params: { branch: judged.branch, judgedCommit: judged.commit, movedTo: now ?? null },
    unrecoverable: true,
  };
  return [moved];
}

/** `$1` branch, `$2` the judged commit, `$3` where it had moved (or empty). Exit 3: the files stayed. */
const FILES_LEFT = 3;
const PUT_BACK_SCRIPT = `
git update-ref "refs/heads/$1" "$2" || exit 1
[ -z "$3" ] || git read-tree -m -u "$3" "$2" || exit ${FILES_LEFT}
`;
