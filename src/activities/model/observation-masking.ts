/**
 * Observation masking (issue 38): without it, every turn of a step re-sends every tool
 * output so far, and billed input grows with the square of the turns. The request of a
 * turn keeps the system prompt, the step prompt and the newest tool results whole, and
 * replaces older tool results with a short placeholder (what was called, how big, where
 * the full text is). The step's own conversation (checkpoints, transcript) stays whole:
 * only what is sent is masked.
 *
 * Masking must not defeat the prompt cache, so it is stable and moves in chunks: the
 * first M results are masked with M a multiple of `maskChunk` that leaves at least
 * `keepToolResults` whole, and a masked result is always the same placeholder. Between
 * two chunks the masked prefix repeats byte for byte; when a chunk is added, the prefix up
 * to the previous chunk's end still repeats. `frontier` and `previousFrontier` name those
 * two places so the request builder can put cache breakpoints there.
 *
 * The turn before a chunk turn is sent knowing the next request will mask results it
 * now sends whole: everything from the first of them on is sent again then, as a cache
 * write. Writing it to the cache now (1.25x the input price) would buy nothing, so
 * `stableEnd` moves the newest-block breakpoint back to the end of what the next request
 * still repeats (or of what the previous one cached, when that lies further on), and the
 * rest goes as plain input (1x). With one result kept and a chunk of 1, that is every
 * turn: each output is billed once at the input price, never written to the cache.
 */
import type { ContextManagement } from '../../contracts/model-options.js';
import { isToolUse, type LlmContentBlock, type LlmMessage, type LlmToolResultBlock } from './llm-client.js';

/** A tool result about to be masked: what the placeholder may say about it. */
export interface MaskedResult {
  readonly toolUseId: string;
  readonly toolName: string;
  readonly input: unknown;
  readonly content: string;
}

/** A block position in the message list. */
export interface BlockAt {
  readonly message: number;
  readonly block: number;
}

export interface MaskedView {
  readonly messages: readonly LlmMessage[];
  /** The last masked result of this request (absent: nothing masked). */
  readonly frontier?: BlockAt;
  /** The last masked result of the previous request when this request masked a new chunk. */
  readonly previousFrontier?: BlockAt;
  /**
   * Where the newest-block breakpoint goes instead, when the next request masks a new
   * chunk (absent: on the newest block, as usual).
   */
  readonly stableEnd?: BlockAt;
}

interface ResultAt extends BlockAt {
  readonly result: LlmToolResultBlock;
}

export type MaskingPolicy = Pick<ContextManagement, 'keepToolResults' | 'maskChunk' | 'minMaskChars'>;

function toolResults(messages: readonly LlmMessage[]): ResultAt[] {
  const found: ResultAt[] = [];
  messages.forEach((m, message) => {
    if (m.role !== 'user') return;
    m.content.forEach((b, block) => {
      if (b.type === 'tool_result' && typeof (b as LlmToolResultBlock).content === 'string')
        found.push({ message, block, result: b as LlmToolResultBlock });
    });
  });
  return found;
}

/** How many of `count` results are masked: whole chunks, leaving at least `keep` whole. */
export function maskedCount(count: number, policy: MaskingPolicy): number {
  const chunk = Math.max(1, policy.maskChunk);
  return Math.floor(Math.max(0, count - policy.keepToolResults) / chunk) * chunk;
}

function toolUseOf(messages: readonly LlmMessage[], at: ResultAt): { name: string; input: unknown } {
  for (let i = at.message - 1; i >= 0; i--) {
    const use = messages[i]?.content.filter(isToolUse).find((b) => b.id === at.result.tool_use_id);
    if (use) return { name: use.name, input: use.input };
  }
  return { name: 'unknown tool', input: {} };
}

/**
 * The messages to send this turn. `placeholder` gives a masked result's replacement; it
 * must return the same text for the same result every time (the cache depends on it).
 */
export async function maskObservations(
  messages: readonly LlmMessage[],
  policy: MaskingPolicy,
  placeholder: (result: MaskedResult) => Promise<string>,
): Promise<MaskedView> {
  const results = toolResults(messages);
  const masked = maskedCount(results.length, policy);
  const newest = messages.at(-1);
  const newestResults = newest?.role === 'user' ? newest.content.filter((b) => b.type === 'tool_result').length : 0;
  const before = maskedCount(results.length - newestResults, policy);
  const stableEnd = stableEndOf(messages, results, policy, masked, before);
  const withEnd = stableEnd ? { stableEnd } : {};
  if (masked === 0) return { messages, ...withEnd };
  const copy = messages.map((m) => ({ role: m.role, content: [...m.content] }));
  for (const at of results.slice(0, masked)) {
    if (at.result.content.length < policy.minMaskChars) continue;
    const use = toolUseOf(messages, at);
    const text = await placeholder({
      toolUseId: at.result.tool_use_id,
      toolName: use.name,
      input: use.input,
      content: at.result.content,
    });
    const { cache_control: _breakpoint, ...rest } = at.result;
    copy[at.message]!.content[at.block] = { ...rest, content: text } as LlmContentBlock;
  }
  const last = results[masked - 1]!;
  const frontier = { message: last.message, block: last.block };
  if (before === masked || before === 0) return { messages: copy, frontier, ...withEnd };
  const prev = results[before - 1]!;
  return { messages: copy, frontier, previousFrontier: { message: prev.message, block: prev.block }, ...withEnd };
}

const after = (a: BlockAt, b: BlockAt): boolean =>
  a.message > b.message || (a.message === b.message && a.block > b.block);

/** The user block just before `at` (the assistant message between is left out), if any. */
function userBlockBefore(messages: readonly LlmMessage[], at: BlockAt): BlockAt | undefined {
  if (at.block > 0) return { message: at.message, block: at.block - 1 };
  for (let i = at.message - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'user' && m.content.length > 0) return { message: i, block: m.content.length - 1 };
  }
  return undefined;
}

/**
 * When the next request (one more result at least) masks a new chunk: the end of what it
 * will still repeat, or, if this request is not itself a chunk turn, the end of the
 * previous request's newest block when that lies further on (it is cached: read it).
 * Undefined when the next request masks nothing new, or nothing it masks would change.
 */
function stableEndOf(
  messages: readonly LlmMessage[],
  results: readonly ResultAt[],
  policy: MaskingPolicy,
  masked: number,
  before: number,
): BlockAt | undefined {
  const next = maskedCount(results.length + 1, policy);
  // The first result the next request replaces (a short one stays whole: not a change).
  const firstChange = results.slice(masked, next).find((r) => r.result.content.length >= policy.minMaskChars);
  if (firstChange === undefined) return undefined;
  const stable = userBlockBefore(messages, firstChange);
  if (stable === undefined) return undefined;
  if (masked > before) return stable;
  const previousNewest =
    messages.length >= 3 ? userBlockBefore(messages, { message: messages.length - 1, block: 0 }) : undefined;
  return previousNewest !== undefined && after(previousNewest, stable) ? previousNewest : stable;
}
