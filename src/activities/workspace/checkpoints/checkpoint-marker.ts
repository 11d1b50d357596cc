/**
 * Which checkpoint a worktree is at, as far as the harness knows: a small JSON file under
 * the repository's common git dir (`<git-common-dir>/agent/checkpoints/<agent>/issue-<n>.json`),
 * never in the work tree. A step activity compares it with the checkpoint the workflow
 * expects; after a reset they differ, and the worktree is restored first.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CHECKPOINT_REF_ROOT } from '../../../contracts/worktree-checkpoint.js';
import { FailureType } from '../../../contracts/failures.js';
import { gitOrThrow } from '../git/git.js';
import { realOrSelf } from '../git/repo-queries.js';

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
