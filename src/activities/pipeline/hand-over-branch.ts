/**
 * The label pipeline's hand-over of an issue's branch (and its worktree) from one agent
 * to the next: 1 issue = 1 branch = 1 worktree = 1 agent, so the next phase's agent may
 * work the branch only once it owns it (workspace/branch-owner.ts). The pipeline calls
 * this before every dispatch, so each change of owner is an activity in its history.
 *
 * Idempotent: a retried attempt finds `to` already the owner. It refuses (WORKTREE_OWNED)
 * while the current owner's own run of the issue is still live: the pipeline never takes
 * a branch from under a running agent.
 */
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import {
  HandOverOutcome,
  issueRunWorkflowId,
  type HandOverBranchInput,
  type HandOverBranchOutput,
} from '../../contracts/pipeline-run.js';
import { branchOwner, setBranchOwner } from '../workspace/branch-owner.js';
import { withRepoLock } from '../workspace/git/repo-lock.js';
import { branchExists, isGitWorkTree, realOrSelf } from '../workspace/git/repo-queries.js';
import { issueBranch } from '../workspace/worktree-layout.js';

export interface HandOverDeps {
  /** Whether the run of that Workflow ID is open (Temporal); false when there is none. */
  readonly isRunLive: (workflowId: string) => Promise<boolean>;
}

export async function handOverBranch(deps: HandOverDeps, input: HandOverBranchInput): Promise<HandOverBranchOutput> {
  if (!(await isGitWorkTree(input.repoPath)))
    throw new AgentError(FailureType.RepoNotFound, `${input.repoPath} is not a git repository`, {
      where: input.repoPath,
      expected: 'the repository the pipeline works on',
    });
  const repoPath = await realOrSelf(input.repoPath);
  const branch = issueBranch(input.branchPrefix, input.issue);
  const base = { branch, to: input.to };
  return withRepoLock(repoPath, async () => {
    if (!(await branchExists(repoPath, branch))) return { ...base, outcome: HandOverOutcome.NoBranch };
    const from = await branchOwner(repoPath, branch);
    if (from === input.to) return { ...base, from, outcome: HandOverOutcome.AlreadyOwned };
    if (from !== undefined) {
      const ownerRun = issueRunWorkflowId(input.repoId, from, input.issue);
      if (await deps.isRunLive(ownerRun))
        throw new AgentError(
          FailureType.WorktreeOwned,
          `cannot hand issue #${input.issue}'s branch ${branch} to agent "${input.to}": agent "${from}" is still working it (run ${ownerRun})`,
          {
            where: `branch ${branch}`,
            expected: `run ${ownerRun} ended (wait for it or cancel it), then the pipeline hands the branch over`,
            details: { branch, owner: from, ownerRun, to: input.to },
          },
        );
    }
    await setBranchOwner(repoPath, branch, input.to);
    return { ...base, ...(from === undefined ? {} : { from }), outcome: HandOverOutcome.HandedOver };
  });
}
