/**
 * Restores a worktree to a checkpoint (record-checkpoint.ts): the checked-out branch back
 * to the checkpoint's parent (commits made by later steps leave the branch), the index
 * matching that HEAD, and the files exactly the checkpoint's tree: changed files put
 * back, files created later removed (ignored files such as node_modules are kept).
 * Like recording, it runs no hook: reset, read-tree, clean and checkout-index have none
 * worth the name, and the harness runner disables hooks and fsmonitor for every call.
 */
import { AgentError } from '../../../contracts/errors.js';
import { FailureType } from '../../../contracts/failures.js';
import { git, gitOrThrow } from '../git/git.js';
import { withTemporaryIndex } from './temporary-index.js';

export interface RestoredCheckpoint {
  readonly commit: string;
  /** Where the branch was put (the checkpoint's parent); undefined for a root checkpoint. */
  readonly head?: string;
}

/** True when the commit exists in the worktree's repository. */
export async function checkpointExists(dir: string, commit: string): Promise<boolean> {
  return (await git(dir, ['cat-file', '-e', `${commit}^{commit}`])).exitCode === 0;
}

export async function restoreWorktreeCheckpoint(worktreePath: string, commit: string): Promise<RestoredCheckpoint> {
  if (!/^[0-9a-f]{40,64}$/.test(commit) || !(await checkpointExists(worktreePath, commit))) {
    throw new AgentError(FailureType.WorktreeFailed, `worktree checkpoint ${commit} is missing from the repository`, {
      where: worktreePath,
      expected: 'the checkpoint commit recorded by the step (refs/agent/...); it is removed with the worktree',
    });
  }
  const parentResult = await git(worktreePath, ['rev-parse', '--verify', '--quiet', `${commit}^1`]);
  const head = parentResult.exitCode === 0 ? parentResult.stdout.trim() : undefined;
  // Branch and index: `reset --mixed` moves the checked-out branch and resets the index, not the files.
  if (head !== undefined) {
    await gitOrThrow(worktreePath, ['reset', '--quiet', '--mixed', head], FailureType.WorktreeFailed);
  }
  // Files: against a temporary index holding the checkpoint's tree, everything else is untracked.
  await withTemporaryIndex(worktreePath, async (run) => {
    await run(['read-tree', `${commit}^{tree}`]);
    await run(['clean', '-d', '--force', '--quiet']);
    await run(['checkout-index', '--all', '--force']);
  });
  return { commit, ...(head === undefined ? {} : { head }) };
}
