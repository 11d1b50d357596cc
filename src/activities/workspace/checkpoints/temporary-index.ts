/**
 * A throwaway git index for the worktree checkpoints: `git add -A` into it records the
 * whole worktree without touching the agent's own index (what it staged stays staged).
 * It lives in a fresh directory of the worktree's git admin dir (the sandbox that runs
 * git on the worktree sees it there, and nothing of the agent runs between tool calls;
 * the agent's private one when it has its own repository)
 * and is removed afterwards, whatever happens.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { FailureType } from '../../../contracts/failures.js';
import { gitOrThrow } from '../git/git.js';
import { gitDirsOf } from '../git/git-state-snapshot.js';
import { privateRepoOf } from '../private-repo/private-repo-layout.js';
import { copyIndexKeepingItsTime } from './copy-index.js';

/** Runs git in the worktree against the temporary index; throws WORKTREE_FAILED with git's message. */
export type IndexedGit = (args: readonly string[], env?: Readonly<Record<string, string>>) => Promise<string>;

export async function withTemporaryIndex<T>(
  worktreePath: string,
  work: (git: IndexedGit, indexFile: string) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(await adminDirOnHost(worktreePath), 'issue-agent-checkpoint-'));
  const indexFile = join(dir, 'index');
  const run: IndexedGit = (args, env) =>
    gitOrThrow(worktreePath, args, FailureType.WorktreeFailed, {
      temporaryIndexFile: indexFile,
      ...(env === undefined ? {} : { env }),
    });
  try {
    return await work(run, indexFile);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The worktree's admin dir as the host sees it: the agent's private one when it has a
 * repository of its own (inside the sandbox it is seen at the user's admin dir's path),
 * else the user's.
 */
async function adminDirOnHost(worktreePath: string): Promise<string> {
  return privateRepoOf(worktreePath)?.repo.adminDir ?? (await gitDirsOf(worktreePath)).gitDir;
}

/**
 * Starts the temporary index as a copy of the worktree's own index (its stat cache makes
 * `add -A` fast on a large tree); without one, from HEAD's tree (or empty: unborn branch).
 */
export async function seedFromWorktreeIndex(worktreePath: string, git: IndexedGit, indexFile: string): Promise<void> {
  const own = join(await adminDirOnHost(worktreePath), 'index');
  if (!(await copyIndexKeepingItsTime(own, indexFile))) await git(['read-tree', 'HEAD']).catch(() => undefined);
}
