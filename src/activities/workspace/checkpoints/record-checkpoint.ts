/**
 * Records a worktree checkpoint: the worktree's files as they are (committed, staged,
 * unstaged, untracked-but-not-ignored) as one commit whose parent is HEAD, on a private
 * ref. The agent's branch, HEAD and index are not touched: the tree is built in the
 * checkpoint's own index (checkpoint-index.ts; a temporary one when none is given), the
 * commit with `commit-tree` and the ref moved with `update-ref`. No hook can run (none
 * of these commands has one, and the harness runner disables them anyway); the commit is
 * never signed (gpg.program would be code we run).
 */
import { access } from 'node:fs/promises';
import { FailureType } from '../../../contracts/failures.js';
import { git, gitOrThrow } from '../git/git.js';
import {
  indexCheckpoint,
  invalidateIndex,
  markIndexAt,
  reseedIndex,
  type CheckpointIndex,
} from './checkpoint-index.js';
import { recordRunRef } from '../run-refs.js';
import { importRunRefs } from '../private-repo/import-run-refs.js';
import { stageWorktree } from './stage-worktree.js';
import { seedFromWorktreeIndex, withTemporaryIndex, type IndexedGit } from './temporary-index.js';

/** A fixed identity: checkpoints never depend on (or borrow) the user's. */
const CHECKPOINT_IDENTITY = {
  GIT_AUTHOR_NAME: 'issue-agent checkpoint',
  GIT_AUTHOR_EMAIL: 'checkpoint@issue-agent.invalid',
  GIT_COMMITTER_NAME: 'issue-agent checkpoint',
  GIT_COMMITTER_EMAIL: 'checkpoint@issue-agent.invalid',
} as const;

/** More changed paths than this: one full scan is cheaper than the argument lists. */
const MAX_NAMED_PATHS = 1000;

export interface RecordedCheckpoint {
  readonly commit: string;
  readonly tree: string;
  /** True when the whole worktree was scanned (`add --all`), false when only named paths were staged. */
  readonly scanned: boolean;
}

export interface RecordOptions {
  /** The checkpoint's persistent index; without it, a temporary index seeded from the worktree's. */
  readonly index?: CheckpointIndex;
  /**
   * The worktree was exactly at checkpoint `from` and since then only `paths` (relative to
   * the worktree) may have changed: when the index is at `from`, only they are staged.
   */
  readonly changedSince?: { readonly from: string; readonly paths: readonly string[] };
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
  options: RecordOptions = {},
): Promise<RecordedCheckpoint> {
  // The sandbox lets the worktree's commands (this git included) write this namespace.
  await recordRunRef(worktreePath, ref);
  const { index } = options;
  if (index === undefined) {
    return withTemporaryIndex(worktreePath, async (run, indexFile) => {
      await seedFromWorktreeIndex(worktreePath, run, indexFile);
      await stageWorktree(run);
      return { ...(await commitIndex(worktreePath, run, ref, message)), scanned: true };
    });
  }
  const run: IndexedGit = (args, env) =>
    gitOrThrow(worktreePath, args, FailureType.WorktreeFailed, {
      temporaryIndexFile: index.file,
      ...(env === undefined ? {} : { env }),
    });
  const at = await indexCheckpoint(index);
  await invalidateIndex(index);
  const named = options.changedSince;
  const canName =
    named !== undefined &&
    named.paths.length <= MAX_NAMED_PATHS &&
    at === named.from &&
    (await access(index.file).then(
      () => true,
      () => false,
    ));
  // A named path git refuses (ignored, outside the tree, gone and never tracked) falls back to the scan.
  const staged = canName && (await stageNamed(run, named.paths));
  if (!staged) {
    await reseedIndex(worktreePath, index, () => run(['read-tree', 'HEAD']));
    await stageWorktree(run);
  }
  const recorded = await commitIndex(worktreePath, run, ref, message);
  await markIndexAt(index, recorded.commit);
  return { ...recorded, scanned: !staged };
}

async function stageNamed(run: IndexedGit, paths: readonly string[]): Promise<boolean> {
  if (paths.length === 0) return true;
  // Literal pathspecs: a file named `*.ts` or `:(glob)x` is that file, never a pattern.
  return run(['--literal-pathspecs', 'add', '--all', '--', ...paths]).then(
    () => true,
    () => false,
  );
}

async function commitIndex(
  worktreePath: string,
  run: IndexedGit,
  ref: string,
  message: string,
): Promise<{ commit: string; tree: string }> {
  const tree = await run(['write-tree']);
  const commitTree = (parent: readonly string[]): Promise<string> =>
    run(['commit-tree', '--no-gpg-sign', tree, ...parent, '-m', message], CHECKPOINT_IDENTITY);
  const commit = await commitTree(['-p', 'HEAD']).catch(async (err: unknown) => {
    if (await hasHeadCommit(worktreePath)) throw err;
    return commitTree([]);
  });
  await run(['update-ref', '-m', 'issue-agent: worktree checkpoint', ref, commit]);
  // Made in the agent's own repository: into the user's (or the cache a remote run
  // pushes from), with the run's branch, as verified data.
  await importRunRefs(worktreePath, [ref]);
  return { commit, tree };
}

async function hasHeadCommit(worktreePath: string): Promise<boolean> {
  return (await git(worktreePath, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])).exitCode === 0;
}
