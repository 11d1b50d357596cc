/**
 * The checkpoints of one run's namespace (`refs/agent/<agent>/issue-<n>/step-<k>`): listed
 * for the reset command and removed, with the marker, when the worktree is removed.
 */
import { stepOfCheckpointRef } from '../../../contracts/worktree-checkpoint.js';
import { git } from '../git/git.js';
import { checkpointIndexOf, markerPath, removeIndex, removeMarker } from './checkpoint-files.js';

export interface CheckpointEntry {
  readonly ref: string;
  readonly step: number;
  readonly commit: string;
}

/** Every checkpoint ref of the namespace, by step ordinal. */
export async function listCheckpoints(dir: string, namespace: string): Promise<CheckpointEntry[]> {
  const r = await git(dir, ['for-each-ref', '--format=%(objectname) %(refname)', `${namespace}/`]);
  if (r.exitCode !== 0) return [];
  const entries: CheckpointEntry[] = [];
  for (const line of r.stdout.split('\n')) {
    const [commit, ref] = line.trim().split(' ');
    const step = ref === undefined ? undefined : stepOfCheckpointRef(ref);
    if (commit && ref && step !== undefined) entries.push({ ref, step, commit });
  }
  return entries.sort((a, b) => a.step - b.step);
}

/** Deletes the namespace's refs (one `update-ref --stdin` transaction) and marker; returns the refs deleted. Safe to call again. */
export async function removeCheckpoints(dir: string, namespace: string): Promise<string[]> {
  const entries = await listCheckpoints(dir, namespace);
  let removed: string[] = [];
  if (entries.length > 0) {
    const input = entries.map((e) => `delete ${e.ref} ${e.commit}\n`).join('');
    const batch = await git(dir, ['update-ref', '--stdin'], { input });
    if (batch.exitCode === 0) removed = entries.map((e) => e.ref);
    else {
      // A ref moved since it was listed: the transaction is all-or-nothing, so one by one.
      for (const entry of entries) {
        if ((await git(dir, ['update-ref', '-d', entry.ref])).exitCode === 0) removed.push(entry.ref);
      }
    }
  }
  const marker = await markerPath(dir, namespace);
  await removeIndex(checkpointIndexOf(marker));
  await removeMarker(marker);
  return removed;
}
