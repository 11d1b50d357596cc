/**
 * What a step records after each model answer and after each turn's tools, and how a
 * retried attempt reads it back. The details stay small (a reference and counters):
 * the conversation itself lives in the artifact store, addressed by sha256.
 *
 * Heartbeats are throttled (and a worker can die before one is sent), so the same
 * checkpoint is also written to the step's artifact directory, synced, before
 * anything that can fail the attempt: a retry takes whichever is further along and
 * never re-sends a model turn it has already paid for.
 */
import type { ArtifactRef } from '../../contracts/activities.js';
import type { Usage } from '../../contracts/usage.js';
import { isArtifactRef } from '../artifacts/artifact-store.js';

export const CHECKPOINT_VERSION = 1;

export interface StepCheckpoint {
  readonly v: typeof CHECKPOINT_VERSION;
  /** `<workflowId>/<stepId>/<iteration>`: a checkpoint of another step is ignored. */
  readonly step: string;
  /** Model calls completed so far (their tool results are in the conversation). */
  readonly turn: number;
  readonly messagesRef: ArtifactRef;
  readonly usage: Usage;
  readonly costUsd: number;
  readonly toolsUsed: readonly string[];
  readonly repairs: number;
  readonly continuations: number;
  /** Input tokens (incl. cache) + output tokens of the last call: the next estimate's base. */
  readonly lastCallTokens: number;
  /**
   * Set when the last message is a model answer whose follow-up (tools, a note) is not
   * done yet: the retry acts on that answer instead of asking the model again.
   */
  readonly pending?: { readonly stopReason: string | null };
  /** The activity (run id / activity id) that wrote it; a record of another execution is ignored. */
  readonly scope?: string;
}

/** The record name of the latest checkpoint in a step's artifact directory. */
export const LATEST_CHECKPOINT = 'latest-checkpoint';

/** Orders checkpoints of one step: later turns first; within a turn, tools done beats pending. */
export function progressOf(c: StepCheckpoint): number {
  return c.turn * 2 + (c.pending === undefined ? 1 : 0);
}

/** The further along of a heartbeat checkpoint and the on-disk record (either may be missing). */
export function furthest(a: StepCheckpoint | undefined, b: StepCheckpoint | undefined): StepCheckpoint | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  return progressOf(b) > progressOf(a) ? b : a;
}

export function stepKey(workflowId: string, stepId: string, iteration: number): string {
  return `${workflowId}/${stepId}/${iteration}`;
}

function isUsage(value: unknown): value is Usage {
  if (typeof value !== 'object' || value === null) return false;
  const u = value as Record<string, unknown>;
  return ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'].every((k) => typeof u[k] === 'number');
}

/** Returns the checkpoint when `value` is one for this step; undefined otherwise. */
export function readCheckpoint(value: unknown, step: string): StepCheckpoint | undefined {
  // Temporal hands back heartbeat details as given; accept an array wrapper too.
  const candidate = Array.isArray(value) ? value[0] : value;
  if (typeof candidate !== 'object' || candidate === null) return undefined;
  const c = candidate as Record<string, unknown>;
  if (c['v'] !== CHECKPOINT_VERSION || c['step'] !== step) return undefined;
  if (typeof c['turn'] !== 'number' || !isArtifactRef(c['messagesRef']) || !isUsage(c['usage'])) return undefined;
  if (typeof c['costUsd'] !== 'number' || !Array.isArray(c['toolsUsed'])) return undefined;
  const pending = c['pending'];
  if (pending !== undefined) {
    const stop = (pending as Record<string, unknown> | null)?.['stopReason'];
    if (typeof pending !== 'object' || pending === null || (stop !== null && typeof stop !== 'string'))
      return undefined;
  }
  return candidate as unknown as StepCheckpoint;
}
