/**
 * The run's branch has two homes: the agent's own repository, where its commits are
 * made, and the user's, where the import puts them. Normally only the agent's moves.
 * But the user's can move on its own: someone commits in the worktree with the host's
 * git (which sees the user's repository), a pipeline hands the branch over. An import
 * must never throw that away, so it compares the user's tip with the tip it last
 * imported (`synced`, kept beside the private repository where no agent command can
 * write):
 *
 *   unchanged since the last import   the agent's tip is imported (force: the agent may
 *                                      have rewritten its branch, as it could before)
 *   moved, and contains the agent's    the agent's repository adopts the user's tip (its
 *                                      index follows; the worktree's files are the same)
 *   moved, and the agent's contains it the agent built on it: imported
 *   moved, and diverged                nothing moves; WORKTREE_FAILED names both tips
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AgentError } from '../../../contracts/errors.js';
import { FailureType } from '../../../contracts/failures.js';
import { git } from '../git/git.js';
import type { PrivateRepo } from './private-repo-layout.js';

export const BranchSync = { Import: 'import', Adopted: 'adopted', Same: 'same' } as const;
export type BranchSync = (typeof BranchSync)[keyof typeof BranchSync];

const syncedFile = (repo: PrivateRepo): string => path.join(repo.root, 'synced');

export async function readSynced(repo: PrivateRepo): Promise<string | undefined> {
  return (await readFile(syncedFile(repo), 'utf8').catch(() => '')).trim() || undefined;
}

export async function writeSynced(repo: PrivateRepo, commit: string): Promise<void> {
  await writeFile(syncedFile(repo), `${commit}\n`);
}

/** Decides what the import does with the branch; adopts the user's tip itself. Objects must be in the user's repository. */
export async function reconcileBranch(options: {
  readonly repo: PrivateRepo;
  readonly worktreePath: string;
  readonly userRepo: string;
  readonly branchRef: string;
  readonly agentTip: string;
}): Promise<BranchSync> {
  const { userRepo, branchRef, agentTip } = options;
  const user = await git(userRepo, ['rev-parse', '--verify', '--quiet', `${branchRef}^{commit}`]);
  const userTip = user.exitCode === 0 ? user.stdout.trim() : undefined;
  if (userTip === agentTip) return BranchSync.Same;
  if (userTip === undefined || userTip === (await readSynced(options.repo))) return BranchSync.Import;
  if (await isAncestor(userRepo, agentTip, userTip)) {
    await adopt(options.worktreePath, branchRef, userTip, agentTip);
    return BranchSync.Adopted;
  }
  if (await isAncestor(userRepo, userTip, agentTip)) return BranchSync.Import;
  throw new AgentError(
    FailureType.WorktreeFailed,
    `${branchRef.replace(/^refs\/heads\//, '')} moved in your repository (to ${userTip.slice(0, 12)}) while the run moved it to ${agentTip.slice(0, 12)}; neither contains the other`,
    {
      where: branchRef,
      expected: `one history: merge ${userTip.slice(0, 12)} into the run's branch or move the branch back, then retry`,
    },
  );
}

async function isAncestor(repo: string, ancestor: string, descendant: string): Promise<boolean> {
  return (await git(repo, ['merge-base', '--is-ancestor', ancestor, descendant])).exitCode === 0;
}

/**
 * The agent's repository takes the user's tip: with HEAD on the branch, a mixed reset
 * (branch and index; the worktree's files are what the user committed); else the ref alone.
 */
async function adopt(worktreePath: string, branchRef: string, userTip: string, agentTip: string): Promise<void> {
  const head = await git(worktreePath, ['symbolic-ref', '--quiet', 'HEAD']);
  const onBranch = head.exitCode === 0 && head.stdout.trim() === branchRef;
  const moved = onBranch
    ? await git(worktreePath, ['reset', '--quiet', '--mixed', userTip])
    : await git(worktreePath, ['update-ref', '-m', 'issue-agent: the branch moved', branchRef, userTip, agentTip]);
  if (moved.exitCode !== 0)
    throw new AgentError(FailureType.WorktreeFailed, `could not follow ${branchRef}: ${moved.stderr.trim()}`, {
      where: worktreePath,
    });
}
