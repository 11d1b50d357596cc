/**
 * Who owns an issue's branch and worktree: 1 issue = 1 branch = 1 worktree = 1 agent
 * (docs/concepts.md#run: two agents never work one branch). Branch and worktree are named from
 * the issue alone (`<prefix>/issue-<n>`, the public contract), so the owner is recorded
 * beside the branch, in the repository's git config as `branch.<b>.agentOwner = <agent
 * name>`: `git branch -D` drops it with the branch, and the git-state guard carries it
 * over like `agentBase` (HARNESS_CONFIG_KEY).
 *
 * The first agent to prepare the branch owns it; a later run of the same agent finds it
 * again; any other agent is refused with WORKTREE_OWNED until the branch is handed over
 * explicitly (handOverBranch: the label pipeline does it as a recorded activity before
 * each dispatch) or deleted. A branch without a recorded owner (made before owners were
 * recorded, or by hand) is claimed by the first agent that prepares it.
 *
 * Branch and worktree names depend on each agent's branchPrefix and worktree root, so two
 * agents could otherwise hold two live branches of one issue side by side: a live
 * worktree on another run-made branch of the issue (`<other prefix>/issue-<n>`, one with a
 * recorded owner) refuses a second one (refuseSecondLiveBranch). Once that worktree is
 * gone (delivered, or removed) the other prefix's branch may stay for review.
 */
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import { git, gitOrThrow } from './git/git.js';

/** The git config variable under `branch.<name>.` (git lower-cases it: `agentowner`). */
export const OWNER_CONFIG_KEY = 'agentOwner';

export async function branchOwner(repoPath: string, branch: string): Promise<string | undefined> {
  const read = await git(repoPath, ['config', '--get', `branch.${branch}.${OWNER_CONFIG_KEY}`]);
  const owner = read.stdout.trim();
  return read.exitCode === 0 && owner !== '' ? owner : undefined;
}

export async function setBranchOwner(repoPath: string, branch: string, agent: string): Promise<void> {
  await gitOrThrow(repoPath, ['config', `branch.${branch}.${OWNER_CONFIG_KEY}`, agent], FailureType.WorktreeFailed);
}

export interface OwnerClaim {
  readonly repoPath: string;
  readonly branch: string;
  readonly worktreePath: string;
  readonly issue: number;
  /** The agent preparing the workspace; undefined for activities scheduled before owners existed. */
  readonly agent: string | undefined;
}

/** Claims an unowned branch for `agent`, accepts its own, refuses another agent's (WORKTREE_OWNED). */
export async function claimBranch(claim: OwnerClaim): Promise<void> {
  if (claim.agent === undefined) return;
  const owner = await branchOwner(claim.repoPath, claim.branch);
  if (owner === claim.agent) return;
  if (owner !== undefined) throw ownedByAnother(claim, owner);
  await setBranchOwner(claim.repoPath, claim.branch, claim.agent);
}

/**
 * Refuses (WORKTREE_OWNED) when `branch` (the one already in the way: on the issue's
 * worktree path, or holding the issue's branch elsewhere) belongs to another agent, so an
 * agent with its own branchPrefix or worktree root hears whose workspace it met.
 */
export async function refuseIfOwnedByAnother(
  claim: OwnerClaim,
  inTheWay: { readonly branch?: string | undefined; readonly path: string },
): Promise<void> {
  const { branch } = inTheWay;
  if (claim.agent === undefined || branch === undefined) return;
  const owner = await branchOwner(claim.repoPath, branch);
  if (owner !== undefined && owner !== claim.agent)
    throw ownedByAnother({ ...claim, branch, worktreePath: inTheWay.path }, owner);
}

/** A live worktree of the repository (workspace/git/repo-queries.ts listWorktrees). */
interface LiveWorktree {
  readonly path: string;
  readonly branch?: string;
  readonly prunable: boolean;
}

/** `<any prefix>/issue-<n>` or `issue-<n>`: a branch a run makes for issue n. */
const isIssueBranch = (branch: string, issue: number): boolean => new RegExp(`(^|/)issue-${issue}$`).test(branch);

/**
 * Refuses (WORKTREE_OWNED) when another run-made branch of the issue is checked out in a
 * live worktree: preparing `claim.branch` would give the issue a second live branch.
 */
export async function refuseSecondLiveBranch(claim: OwnerClaim, worktrees: readonly LiveWorktree[]): Promise<void> {
  if (claim.agent === undefined) return;
  for (const tree of worktrees) {
    const other = tree.branch;
    if (tree.prunable || other === undefined || other === claim.branch || !isIssueBranch(other, claim.issue)) continue;
    const owner = await branchOwner(claim.repoPath, other);
    if (owner === undefined) continue;
    throw new AgentError(
      FailureType.WorktreeOwned,
      `issue #${claim.issue} already has a live branch, ${other} (worktree ${tree.path}, agent "${owner}"); ` +
        `agent "${claim.agent}" would make a second one, ${claim.branch} (1 issue = 1 branch = 1 worktree = 1 agent)`,
      {
        where: `branch ${other}`,
        expected:
          `the run on ${other} ended and its worktree removed (delivered, or \`git worktree remove ${tree.path}\`), ` +
          `or agent "${claim.agent}" with the same branchPrefix and worktree root as agent "${owner}", so the branch can be handed over`,
        details: { branch: other, owner, agent: claim.agent, wanted: claim.branch },
      },
    );
  }
}

export function ownedByAnother(claim: OwnerClaim, owner: string): AgentError {
  const { branch, issue, agent } = claim;
  return new AgentError(
    FailureType.WorktreeOwned,
    `issue #${issue}'s branch ${branch} and its worktree ${claim.worktreePath} belong to agent "${owner}"; ` +
      `agent "${agent ?? '?'}" may not work them (1 issue = 1 branch = 1 worktree = 1 agent)`,
    {
      where: `branch ${branch}`,
      expected:
        `agent "${owner}" on issue #${issue}, or, once its run has ended, the branch handed over ` +
        `(\`git config branch.${branch}.${OWNER_CONFIG_KEY} ${agent ?? '<agent>'}\`; a label pipeline does this itself) ` +
        `or deleted after its work is merged`,
      details: { branch, owner, ...(agent === undefined ? {} : { agent }) },
    },
  );
}
