/**
 * Records a worktree checkpoint: the worktree's files as they are (committed, staged,
 * unstaged, untracked-but-not-ignored) as one commit whose parent is HEAD, on a private
 * ref. The agent's branch, HEAD and index are not touched: the tree is built in the
 * checkpoint's own index (checkpoint-files.ts; a temporary one when none is given), the
 * commit with `commit-tree` and the ref moved with `update-ref`, all in one sandboxed git
 * process (commit-checkpoint.ts).
 */
import { access } from 'node:fs/promises';
import { FailureType } from '../../../contracts/failures.js';
import { gitOrThrow } from '../git/git.js';
import {
  indexCheckpoint,
  invalidateIndex,
  markIndexAt,
  reseedIndex,
  type CheckpointIndex,
} from './checkpoint-files.js';
import { recordRunRef } from '../run-refs.js';
import { importRunRefs, runRefsToImport } from '../private-repo/import-run-refs.js';
import { commitCheckpoint } from './commit-checkpoint.js';
import { stageWorktree } from './stage-worktree.js';
import { seedFromWorktreeIndex, withTemporaryIndex, type IndexedGit } from './temporary-index.js';

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
 * One git process for a whole scan (add, write-tree, commit-tree, update-ref, the refs to
 * import), two when only named paths are staged; then the import's pack of new objects.
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
      return { ...(await stageAndCommit({ worktreePath, run, indexFile, ref, message })), scanned: true };
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
  if (!staged) await reseedIndex(worktreePath, index, () => run(['read-tree', 'HEAD']));
  const commit = { worktreePath, run, indexFile: index.file, ref, message };
  const recorded = staged ? await commitStaged(commit) : await stageAndCommit(commit);
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

interface Commit {
  readonly worktreePath: string;
  readonly run: IndexedGit;
  readonly indexFile: string;
  readonly ref: string;
  readonly message: string;
}

/**
 * `add --all`, then the commit, in one process; when the add fails (a nested repository
 * with no commit checked out), stageWorktree's loop leaves such repositories out, or
 * throws git's own error, and the commit follows alone.
 */
async function stageAndCommit(commit: Commit): Promise<{ commit: string; tree: string }> {
  const first = await commitAndImport(commit, 'all');
  if (first !== 'stage-failed') return first;
  await stageWorktree(commit.run);
  return commitStaged(commit);
}

async function commitStaged(commit: Commit): Promise<{ commit: string; tree: string }> {
  const done = await commitAndImport(commit, 'none');
  if (done === 'stage-failed') throw new Error('commitCheckpoint staged nothing, yet its add failed');
  return done;
}

/**
 * Made in the agent's own repository: then into the user's (or the cache a remote run
 * pushes from), with the run's branch, as verified data; the refs to import are listed by
 * the same process that moved them.
 */
async function commitAndImport(
  { worktreePath, indexFile, ref, message }: Commit,
  stage: 'all' | 'none',
): Promise<{ commit: string; tree: string } | 'stage-failed'> {
  const list = runRefsToImport(worktreePath, [ref]);
  const committed = await commitCheckpoint({ worktreePath, indexFile, stage, ref, message, list });
  if (committed === 'stage-failed') return committed;
  await importRunRefs(worktreePath, [ref], list.length === 0 ? undefined : committed.listed);
  return { commit: committed.commit, tree: committed.tree };
}
