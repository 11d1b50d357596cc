/**
 * What a step heartbeats after each completed turn, and how a retried attempt reads
 * it back. The details stay small (a reference and counters): the conversation
 * itself lives in the artifact store, addressed by sha256.
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
  return candidate as unknown as StepCheckpoint;
}
