/**
 * The mutable state of one step's conversation and its checkpoint: what a step records
 * after each model answer and after each turn's tools, and how a retried attempt restores
 * it without re-running earlier tool calls. The checkpoint stays small (a reference and
 * counters): the conversation itself lives in the artifact store, addressed by sha256.
 *
 * Heartbeats are throttled (and a worker can die before one is sent), so the same
 * checkpoint is also written to the step's artifact directory, synced, before
 * anything that can fail the attempt: a retry takes whichever is further along and
 * never re-sends a model turn it has already paid for.
 */
import type { ArtifactRef } from '../../contracts/activities.js';
import { ZERO_USAGE, addUsage, type Usage } from '../../contracts/usage.js';
import { isArtifactRef, type ArtifactStore } from '../artifacts/artifact-store.js';
import type { LogFn } from '../tools/tool-types.js';
import type { LlmMessage, LlmUsage } from './llm-client.js';
import { isJsonObject } from '../../contracts/json.js';

export const CHECKPOINT_VERSION = 1;

/** What a step heartbeats before its first checkpoint (keep-alive): a retry finds no checkpoint, and nothing wrong. */
export function noCheckpointYet(step: string): { readonly v: 0; readonly step: string; readonly turn: 0 } {
  return { v: 0, step, turn: 0 };
}

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

export interface StepState {
  turn: number;
  messages: LlmMessage[];
  usage: Usage;
  costUsd: number;
  toolsUsed: string[];
  repairs: number;
  continuations: number;
  lastCallTokens: number;
  /** Characters appended since the last call (tool results, notes): part of the next input. */
  pendingChars: number;
  lastText: string;
  resumedFromTurn?: number;
  /** The last message is a model answer whose follow-up is not done yet (see StepCheckpoint.pending). */
  pending?: { readonly stopReason: string | null };
}

export function freshState(first: LlmMessage): StepState {
  return {
    turn: 0,
    messages: [first],
    usage: ZERO_USAGE,
    costUsd: 0,
    toolsUsed: [],
    repairs: 0,
    continuations: 0,
    lastCallTokens: 0,
    pendingChars: 0,
    lastText: '',
  };
}

function lastAssistantText(messages: readonly LlmMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== 'assistant') continue;
    const text = m.content
      .flatMap((b) => (b.type === 'text' && typeof b['text'] === 'string' ? [b['text'] as string] : []))
      .join('\n');
    if (text) return text;
  }
  return '';
}

/** The checkpoint this attempt's execution last wrote to disk (a retry after a lost heartbeat finds it). */
async function recordedCheckpoint(store: ArtifactStore, step: string, scope: string | undefined) {
  if (scope === undefined) return undefined;
  const recorded = readCheckpoint(await store.readRecord(LATEST_CHECKPOINT), step);
  return recorded?.scope === scope ? recorded : undefined;
}

/**
 * Restores from the further along of the heartbeat checkpoint and the one on disk
 * for this activity execution (`scope`); a fresh state when there is none usable.
 */
export async function restoreState(
  resumeFrom: unknown,
  step: string,
  first: LlmMessage,
  store: ArtifactStore,
  log: LogFn,
  scope?: string,
): Promise<StepState> {
  const heartbeat = resumeFrom === undefined || resumeFrom === null ? undefined : readCheckpoint(resumeFrom, step);
  const keptAlive = isJsonObject(resumeFrom) && resumeFrom['v'] === 0 && resumeFrom['step'] === step;
  if (resumeFrom !== undefined && resumeFrom !== null && heartbeat === undefined && !keptAlive)
    log('warn', 'heartbeat details are not a checkpoint of this step', { step });
  const checkpoint = furthest(heartbeat, await recordedCheckpoint(store, step, scope));
  if (!checkpoint) return freshState(first);
  let messages: LlmMessage[];
  try {
    messages = await store.readJson<LlmMessage[]>(checkpoint.messagesRef);
  } catch (error) {
    // Without the conversation we cannot continue; starting over re-runs tools, but losing the step is worse.
    log('warn', 'checkpointed conversation is unreadable; starting the step over', {
      step,
      error: (error as Error).message,
    });
    return freshState(first);
  }
  const last = messages[messages.length - 1];
  return {
    turn: checkpoint.turn,
    messages,
    usage: checkpoint.usage,
    costUsd: checkpoint.costUsd,
    toolsUsed: [...checkpoint.toolsUsed],
    repairs: checkpoint.repairs,
    continuations: checkpoint.continuations,
    lastCallTokens: checkpoint.lastCallTokens,
    pendingChars: last ? JSON.stringify(last.content).length : 0,
    lastText: lastAssistantText(messages),
    resumedFromTurn: checkpoint.turn,
    ...(checkpoint.pending ? { pending: checkpoint.pending } : {}),
  };
}

export function toUsage(u: LlmUsage): Usage {
  return {
    inputTokens: u.input_tokens ?? 0,
    outputTokens: u.output_tokens ?? 0,
    cacheReadTokens: u.cache_read_input_tokens ?? 0,
    cacheWriteTokens: u.cache_creation_input_tokens ?? 0,
  };
}

export function recordTurnUsage(state: StepState, turnUsage: Usage, turnCostUsd: number): void {
  state.turn += 1;
  state.usage = addUsage(state.usage, turnUsage);
  state.costUsd += turnCostUsd;
  state.lastCallTokens =
    turnUsage.inputTokens + turnUsage.cacheReadTokens + turnUsage.cacheWriteTokens + turnUsage.outputTokens;
  state.pendingChars = 0;
}

/**
 * Writes the conversation and the latest-checkpoint record (synced), then returns the
 * small heartbeat details that point at it.
 */
export async function checkpoint(
  state: StepState,
  step: string,
  store: ArtifactStore,
  scope?: string,
): Promise<StepCheckpoint> {
  const messagesRef = await store.putJson('messages', state.messages);
  const details: StepCheckpoint = {
    v: CHECKPOINT_VERSION,
    step,
    turn: state.turn,
    messagesRef,
    usage: state.usage,
    costUsd: state.costUsd,
    toolsUsed: [...state.toolsUsed],
    repairs: state.repairs,
    continuations: state.continuations,
    lastCallTokens: state.lastCallTokens,
    ...(state.pending ? { pending: state.pending } : {}),
    ...(scope !== undefined ? { scope } : {}),
  };
  if (scope !== undefined) await store.writeRecord(LATEST_CHECKPOINT, details);
  return details;
}
