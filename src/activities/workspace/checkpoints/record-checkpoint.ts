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
  readonly tree: string;
}

/**
 * Four git processes per checkpoint (add, write-tree, commit-tree, update-ref): HEAD is
 * named as the parent rather than looked up first, and only an unborn branch (no HEAD
 * commit) costs a second commit-tree, without a parent.
 */
export async function recordWorktreeCheckpoint(
  worktreePath: string,
  ref: string,
  message: string,
): Promise<RecordedCheckpoint> {
  return withTemporaryIndex(worktreePath, async (run, indexFile) => {
    await seedFromWorktreeIndex(worktreePath, run, indexFile);
    await run(['add', '--all']);
    const tree = await run(['write-tree']);
    const commitTree = (parent: readonly string[]): Promise<string> =>
      run(['commit-tree', '--no-gpg-sign', tree, ...parent, '-m', message], CHECKPOINT_IDENTITY);
    const commit = await commitTree(['-p', 'HEAD']).catch(async (err: unknown) => {
      if (await hasHeadCommit(worktreePath)) throw err;
      return commitTree([]);
    });
    await run(['update-ref', '-m', 'issue-agent: worktree checkpoint', ref, commit]);
    return { commit, tree };
  });
}

async function hasHeadCommit(worktreePath: string): Promise<boolean> {
  return (await git(worktreePath, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])).exitCode === 0;
}
