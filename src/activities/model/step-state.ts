/**
 * The mutable state of one step's conversation, how it is checkpointed after each
 * turn (conversation to the artifact store, small details to the heartbeat) and how
 * a retried attempt restores it without re-running earlier tool calls.
 */
import { ZERO_USAGE, addUsage, type Usage } from '../../contracts/usage.js';
import type { ArtifactStore } from '../artifacts/artifact-store.js';
import type { LogFn } from '../tools/tool-types.js';
import type { LlmMessage, LlmUsage } from './llm-client.js';
import {
  CHECKPOINT_VERSION,
  furthest,
  LATEST_CHECKPOINT,
  readCheckpoint,
  type StepCheckpoint,
} from './step-checkpoint.js';

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
  if (resumeFrom !== undefined && resumeFrom !== null && heartbeat === undefined)
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
