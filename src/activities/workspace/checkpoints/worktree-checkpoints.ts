/**
 * Worktree checkpoints around a step activity (the model step and the runner step; no
 * activity of its own, so no extra round trip per step):
 *   before: if the worktree is not where the workflow expects it (the run was reset to an
 *           earlier step), restore it to the expected checkpoint, and log that;
 *   after:  record the worktree as the step's checkpoint; its commit id goes into the
 *           step's result, so it lands in workflow history.
 * A retry of the same activity never restores: it continues what its first attempt did.
 */
import type { WorktreeCheckpointRequest } from '../../../contracts/worktree-checkpoint.js';
import {
  checkpointIndexOf,
  invalidateIndex,
  markerPath,
  readMarker,
  writeMarker,
  type CheckpointMarker,
} from './checkpoint-files.js';
import { recordWorktreeCheckpoint, type RecordOptions } from './record-checkpoint.js';
import { restoreWorktreeCheckpoint } from './restore-checkpoint.js';

export interface CheckpointScope {
  readonly runId: string;
  readonly activityId: string;
}

export type CheckpointLog = (level: 'info' | 'warn', message: string, data?: Record<string, unknown>) => void;

/** The namespace of a step ref: `refs/agent/<agent>/issue-<n>/step-<k>` without the step. */
export function namespaceOf(ref: string): string {
  return ref.replace(/\/step-\d+$/, '');
}

const scopeKey = (scope: CheckpointScope): string => `${scope.runId}/${scope.activityId}`;

/**
 * Whether the worktree must be restored to `expected` before the step runs. Not when
 * nothing is expected yet (first step), nothing is known (no marker), or this very
 * activity wrote the marker (a retry). Yes when the marker is at another checkpoint, or
 * at this one but left dirty by a step of another run (a reset while a step was running).
 */
export function needsRestore(
  marker: CheckpointMarker | undefined,
  expected: string | undefined,
  scope: CheckpointScope,
): boolean {
  if (expected === undefined || marker === undefined) return false;
  if (marker.scope === scopeKey(scope)) return false;
  if (marker.checkpoint !== expected) return true;
  return marker.dirty && marker.runId !== scope.runId;
}

export interface AlignedWorktree {
  readonly restored: boolean;
  /**
   * The worktree was found (or put) exactly at the expected checkpoint, with no step's
   * changes in it since: a step that then changes nothing has that checkpoint as its own.
   */
  readonly cleanAtExpected: boolean;
}

/**
 * Before the step: restores the worktree when needed, then marks it as in a step. With
 * `inStep: false` (the validators: they change nothing worth a checkpoint) the marker is
 * only rewritten after a restore, and then as clean.
 */
export async function alignWorktree(
  worktreePath: string,
  request: WorktreeCheckpointRequest,
  scope: CheckpointScope,
  log: CheckpointLog,
  options: { readonly inStep: boolean } = { inStep: true },
): Promise<AlignedWorktree> {
  const path = await markerPath(worktreePath, namespaceOf(request.ref));
  const marker = await readMarker(path);
  if (marker?.scope === scopeKey(scope)) return { restored: false, cleanAtExpected: false };
  const restore = needsRestore(marker, request.expected, scope);
  if (restore && request.expected !== undefined) {
    const restored = await restoreWorktreeCheckpoint(worktreePath, request.expected);
    log('warn', 'worktree restored to the checkpoint of the last completed step (the run was reset)', {
      checkpoint: restored.commit,
      head: restored.head,
      was: marker?.checkpoint,
      worktreePath,
    });
  }
  const cleanAtExpected =
    request.expected !== undefined && (restore || (marker?.checkpoint === request.expected && !marker.dirty));
  // Validators run code that may leave files behind without a checkpoint: the next step's
  // checkpoint cannot trust a list of named paths, so it scans (no index at a checkpoint).
  if (!options.inStep) await invalidateIndex(checkpointIndexOf(path));
  if (!options.inStep && !restore) return { restored: false, cleanAtExpected };
  const at = request.expected ?? marker?.checkpoint;
  await writeMarker(path, {
    ...(at === undefined ? {} : { checkpoint: at }),
    dirty: options.inStep,
    scope: scopeKey(scope),
    runId: scope.runId,
  });
  return { restored: restore, cleanAtExpected };
}

async function markClean(
  worktreePath: string,
  request: WorktreeCheckpointRequest,
  checkpoint: string,
  scope: CheckpointScope,
): Promise<void> {
  await writeMarker(await markerPath(worktreePath, namespaceOf(request.ref)), {
    checkpoint,
    dirty: false,
    scope: scopeKey(scope),
    runId: scope.runId,
  });
}

/**
 * After the step: records its checkpoint. A failure to record is logged, not thrown: the
 * step's work (and its paid model turns) is worth more than its checkpoint. `changedSince`
 * (the worktree was clean at a checkpoint and the tools name every path they wrote) lets
 * it stage only those paths.
 */
export async function recordStepCheckpoint(
  worktreePath: string,
  request: WorktreeCheckpointRequest,
  scope: CheckpointScope,
  label: string,
  log: CheckpointLog,
  changedSince?: RecordOptions['changedSince'],
): Promise<string | undefined> {
  try {
    const index = checkpointIndexOf(await markerPath(worktreePath, namespaceOf(request.ref)));
    const recorded = await recordWorktreeCheckpoint(worktreePath, request.ref, `worktree checkpoint: ${label}`, {
      index,
      ...(changedSince === undefined ? {} : { changedSince }),
    });
    await markClean(worktreePath, request, recorded.commit, scope);
    return recorded.commit;
  } catch (err) {
    log('warn', 'could not record the worktree checkpoint of the step', {
      ref: request.ref,
      error: err instanceof Error ? err.message : String(err),
    });
    return undefined;
  }
}

/** What `withWorktreeCheckpoint` needs: where, which checkpoint, for whom, and what the work says of itself. */
export interface WorktreeCheckpointOptions<T> {
  readonly worktreePath: string;
  /** The step's checkpoint ref and the expected one; undefined: no checkpoint, the work just runs. */
  readonly request: WorktreeCheckpointRequest | undefined;
  readonly scope: CheckpointScope;
  /** Names the checkpoint commit (`worktree checkpoint: <label>`). */
  readonly label: string;
  readonly log: CheckpointLog;
  readonly work: () => Promise<T>;
  /**
   * The work cannot have touched the worktree (no tool ran, first attempt): when the
   * worktree was clean at the expected checkpoint before, that checkpoint is the step's own
   * and no git process runs (step K-1's ref keeps the commit; reset reads the commit id
   * from history). A step with only a model answer costs no checkpoint. Default: never.
   */
  readonly changedNothing?: (result: T) => boolean;
  /**
   * Every path the work wrote (undefined: unknown); from a clean worktree at the expected
   * checkpoint, only those are staged (no scan of the worktree). Default: unknown.
   */
  readonly changedPaths?: (result: T) => readonly string[] | undefined;
}

/** Runs a step activity's work between aligning the worktree and recording its checkpoint. */
export async function withWorktreeCheckpoint<T extends object>(
  options: WorktreeCheckpointOptions<T>,
): Promise<T & { readonly worktreeCheckpoint?: string }> {
  const { worktreePath, request, scope, label, log, work } = options;
  if (request === undefined) return work();
  const aligned = await alignWorktree(worktreePath, request, scope, log);
  const result = await work();
  if (aligned.cleanAtExpected && request.expected !== undefined && options.changedNothing?.(result) === true) {
    await markClean(worktreePath, request, request.expected, scope);
    return { ...result, worktreeCheckpoint: request.expected };
  }
  const paths = aligned.cleanAtExpected ? options.changedPaths?.(result) : undefined;
  const changedSince =
    paths === undefined || request.expected === undefined ? undefined : { from: request.expected, paths };
  const commit = await recordStepCheckpoint(worktreePath, request, scope, label, log, changedSince);
  return commit === undefined ? result : { ...result, worktreeCheckpoint: commit };
}
