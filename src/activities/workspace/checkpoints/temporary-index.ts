/**
 * A throwaway git index for the worktree checkpoints: `git add -A` into it records the
 * whole worktree without touching the agent's own index (what it staged stays staged).
 * It lives in a private temp dir and is removed afterwards, whatever happens.
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FailureType } from '../../../contracts/failures.js';
import { gitOrThrow } from '../git/git.js';

/** Runs git in the worktree against the temporary index; throws WORKTREE_FAILED with git's message. */
export type IndexedGit = (args: readonly string[], env?: Readonly<Record<string, string>>) => Promise<string>;

export async function withTemporaryIndex<T>(
  worktreePath: string,
  work: (git: IndexedGit, indexFile: string) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'issue-agent-checkpoint-'));
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
 * Starts the temporary index as a copy of the worktree's own index (its stat cache makes
 * `add -A` fast on a large tree); without one, from HEAD's tree (or empty: unborn branch).
 */
export async function seedFromWorktreeIndex(worktreePath: string, git: IndexedGit, indexFile: string): Promise<void> {
  const own = await gitOrThrow(
    worktreePath,
    ['rev-parse', '--path-format=absolute', '--git-path', 'index'],
    FailureType.WorktreeFailed,
  );
  const copied = await copyFile(own, indexFile).then(
    () => true,
    () => false,
  );
  if (!copied) await git(['read-tree', 'HEAD']).catch(() => undefined);
}
