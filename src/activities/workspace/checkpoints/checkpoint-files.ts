/**
 * The checkpoint's bookkeeping files, side by side under the repository's common git dir
 * (`<git-common-dir>/agent/checkpoints/<agent>/issue-<n>.*`), never in the work tree:
 *
 * - the marker (`….json`): which checkpoint the worktree is at, as far as the harness
 *   knows. A step activity compares it with the checkpoint the workflow expects; after a
 *   reset they differ, and the worktree is restored first.
 * - the index (`….index`): a git index holding the tree of the last recorded checkpoint,
 *   with git's stat cache and cache-tree. A sidecar (`….index-at`) names the checkpoint
 *   commit it is at; it is removed before the index is touched and written only after the
 *   checkpoint's ref moved, so a crash in between leaves no sidecar and the next
 *   checkpoint starts over from the worktree's own index. Why: a step that only edited
 *   files through the editor tool knows which paths it wrote; from the previous
 *   checkpoint's index, `git add -A -- <those paths>` and `write-tree` (cache-tree: only
 *   the changed directories are rehashed) record the same tree a full `add --all` would,
 *   without scanning a 100 000-file worktree.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CHECKPOINT_REF_ROOT } from '../../../contracts/worktree-checkpoint.js';
import { FailureType } from '../../../contracts/failures.js';
import { gitOrThrow } from '../git/git.js';
import { realOrSelf } from '../git/repo-queries.js';
import { copyIndexKeepingItsTime } from './copy-index.js';

export interface CheckpointMarker {
  /** The checkpoint the worktree was last recorded at or restored to; absent before the first. */
  readonly checkpoint?: string;
  /** A step started from `checkpoint` and has not recorded its own yet (its changes are in the files). */
  readonly dirty: boolean;
  /** The run and activity that last wrote it (`<runId>/<activityId>`), and the run alone. */
  readonly scope: string;
  readonly runId: string;
}

export async function commonGitDir(dir: string): Promise<string> {
  const raw = await gitOrThrow(
    dir,
    ['rev-parse', '--path-format=absolute', '--git-common-dir'],
    FailureType.WorktreeFailed,
  );
  return realOrSelf(raw);
}

/** The marker file of a checkpoint namespace (`refs/agent/<agent>/issue-<n>`). */
export async function markerPath(dir: string, namespace: string): Promise<string> {
  const relative = namespace.startsWith(`${CHECKPOINT_REF_ROOT}/`)
    ? namespace.slice(CHECKPOINT_REF_ROOT.length + 1)
    : namespace;
  return join(await commonGitDir(dir), 'agent', 'checkpoints', `${relative}.json`);
}

export async function readMarker(path: string): Promise<CheckpointMarker | undefined> {
  try {
    const value = JSON.parse(await readFile(path, 'utf8')) as Partial<CheckpointMarker>;
    if (typeof value.scope !== 'string' || typeof value.runId !== 'string') return undefined;
    return {
      ...(typeof value.checkpoint === 'string' ? { checkpoint: value.checkpoint } : {}),
      dirty: value.dirty === true,
      scope: value.scope,
      runId: value.runId,
    };
  } catch {
    return undefined;
  }
}

/** Written to a temp file and renamed: a crash leaves the old marker or the new one. */
export async function writeMarker(path: string, marker: CheckpointMarker): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(marker)}\n`, 'utf8');
  await rename(temp, path);
}

export async function removeMarker(path: string): Promise<void> {
  await rm(path, { force: true });
}

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
