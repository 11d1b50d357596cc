/**
 * Records a worktree checkpoint: the worktree's files as they are (committed, staged,
 * unstaged, untracked-but-not-ignored) as one commit whose parent is HEAD, on a private
 * ref. The agent's branch, HEAD and index are not touched: the tree is built in a
 * temporary index, the commit with `commit-tree` and the ref moved with `update-ref`.
 * No hook can run (none of these commands has one, and the harness runner disables
 * them anyway); the commit is never signed (gpg.program would be code we run).
 */
import { git } from '../git/git.js';
import { seedFromWorktreeIndex, withTemporaryIndex } from './temporary-index.js';

/** A fixed identity: checkpoints never depend on (or borrow) the user's. */
const CHECKPOINT_IDENTITY = {
  GIT_AUTHOR_NAME: 'issue-agent checkpoint',
  GIT_AUTHOR_EMAIL: 'checkpoint@issue-agent.invalid',
  GIT_COMMITTER_NAME: 'issue-agent checkpoint',
  GIT_COMMITTER_EMAIL: 'checkpoint@issue-agent.invalid',
} as const;

export interface RecordedCheckpoint {
  readonly commit: string;
  /** HEAD when it was taken (the commit's parent); undefined on an unborn branch. */
  readonly head?: string;
  readonly tree: string;
}

export async function recordWorktreeCheckpoint(
  worktreePath: string,
  ref: string,
  message: string,
): Promise<RecordedCheckpoint> {
  const headResult = await git(worktreePath, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  const head = headResult.exitCode === 0 ? headResult.stdout.trim() : undefined;
  return withTemporaryIndex(worktreePath, async (run, indexFile) => {
    if (head !== undefined) await seedFromWorktreeIndex(worktreePath, run, indexFile);
    await run(['add', '--all']);
    const tree = await run(['write-tree']);
    const parent = head === undefined ? [] : ['-p', head];
    const commit = await run(['commit-tree', '--no-gpg-sign', tree, ...parent, '-m', message], CHECKPOINT_IDENTITY);
    await run(['update-ref', '-m', 'issue-agent: worktree checkpoint', ref, commit]);
    return { commit, tree, ...(head === undefined ? {} : { head }) };
  });
}
