/**
 * The checkpoint index: a git index file kept beside the checkpoint marker
 * (`<git-common-dir>/agent/checkpoints/<agent>/issue-<n>.index`) that holds the tree of
 * the last recorded checkpoint, with git's stat cache and cache-tree. A sidecar
 * (`….index-at`) names the checkpoint commit it is at; it is removed before the index is
 * touched and written only after the checkpoint's ref moved, so a crash in between leaves
 * no sidecar and the next checkpoint starts over from the worktree's own index.
 *
 * Why (issue 29): a step that only edited files through the editor tool knows which paths
 * it wrote; from the previous checkpoint's index, `git add -A -- <those paths>` and
 * `write-tree` (cache-tree: only the changed directories are rehashed) record the same
 * tree a full `add --all` would, without scanning a 100 000-file worktree.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { FailureType } from '../../../contracts/failures.js';
import { gitOrThrow } from '../git/git.js';
import { copyIndexKeepingItsTime } from './copy-index.js';

export interface CheckpointIndex {
  /** The index file (GIT_INDEX_FILE of the checkpoint's git calls). */
  readonly file: string;
  /** The sidecar naming the checkpoint commit the index is at. */
  readonly at: string;
}

/** The index beside a marker file (`….json`). */
export function checkpointIndexOf(markerFile: string): CheckpointIndex {
  const base = markerFile.replace(/\.json$/, '');
  return { file: `${base}.index`, at: `${base}.index-at` };
}

/** The checkpoint the index is at, or undefined (none, or left mid-update). */
export async function indexCheckpoint(index: CheckpointIndex): Promise<string | undefined> {
  const text = await readFile(index.at, 'utf8').catch(() => undefined);
  const commit = text?.trim();
  return commit !== undefined && /^[0-9a-f]{40,64}$/.test(commit) ? commit : undefined;
}

/** Before any write to the index: from here until `markIndexAt`, it is at no checkpoint. */
export async function invalidateIndex(index: CheckpointIndex): Promise<void> {
  await rm(index.at, { force: true });
}

export async function markIndexAt(index: CheckpointIndex, commit: string): Promise<void> {
  await writeFile(index.at, `${commit}\n`, 'utf8');
}

/** Removes both files (the worktree is gone, or its checkpoints were removed). */
export async function removeIndex(index: CheckpointIndex): Promise<void> {
  await rm(index.at, { force: true });
  await rm(index.file, { force: true });
}

/**
 * Starts the index over as a copy of the worktree's own index (its stat cache makes a full
 * `add -A` fast); without one, from HEAD's tree (or empty: unborn branch).
 */
export async function reseedIndex(
  worktreePath: string,
  index: CheckpointIndex,
  readTreeHead: () => Promise<unknown>,
): Promise<void> {
  const own = await gitOrThrow(
    worktreePath,
    ['rev-parse', '--path-format=absolute', '--git-path', 'index'],
    FailureType.WorktreeFailed,
  );
  await rm(index.file, { force: true });
  if (!(await copyIndexKeepingItsTime(own, index.file))) await readTreeHead().catch(() => undefined);
}
