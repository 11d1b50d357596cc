/**
 * A Messages API request as the prompt cache sees it: the ordered blocks of its prompt
 * (tool definitions, then system blocks, then every message's content blocks), each with
 * a token estimate, a hash of the prefix that ends with it, and whether it carries a
 * `cache_control` breakpoint. The offline server bills cache reads and writes from these
 * (prompt-cache.ts) the way the API does: by prefix, block boundary by block boundary.
 *
 * The one token estimate of the offline server: a block costs ceil(characters / 4) of
 * its JSON with `cache_control` removed (TOKEN_ESTIMATE_CHARS). The request's other
 * fields (max_tokens, output_config, ...) are not counted.
 */
import { createHash } from 'node:crypto';

/** Characters per token of the offline server's estimate. */
export const TOKEN_ESTIMATE_CHARS = 4;

export function estimateTokens(chars: number): number {
  return Math.ceil(chars / TOKEN_ESTIMATE_CHARS);
}

export interface PromptSegment {
  /** Estimated tokens of this block. */
  readonly tokens: number;
  /** Tokens of the prompt up to and including this block. */
  readonly cumulativeTokens: number;
  /** Hash of the model and the prompt up to and including this block. */
  readonly prefixHash: string;
  /** The block carries `cache_control`. */
  readonly breakpoint: boolean;
}

type Block = Record<string, unknown>;

const isObject = (v: unknown): v is Block => typeof v === 'object' && v !== null && !Array.isArray(v);

function blocksOf(content: unknown): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter(isObject) : [];
}

/** The block's JSON without its breakpoint, so a moved breakpoint does not change the prefix. */
function canonical(block: Block): string {
  if (!('cache_control' in block)) return JSON.stringify(block);
  const { cache_control: _breakpoint, ...rest } = block;
  return JSON.stringify(rest);
}

/** One entry per prompt block, in the order the API reads them: tools → system → messages. */
export function promptSegments(body: unknown): PromptSegment[] {
  const req = isObject(body) ? body : {};
  const parts: Array<{ readonly key: string; readonly text: string; readonly breakpoint: boolean }> = [];
  for (const tool of Array.isArray(req['tools']) ? req['tools'].filter(isObject) : []) {
    const text = canonical(tool);
    parts.push({ key: `tool:${text}`, text, breakpoint: isObject(tool['cache_control']) });
  }
  for (const block of blocksOf(req['system'])) {
    const text = canonical(block);
    parts.push({ key: `system:${text}`, text, breakpoint: isObject(block['cache_control']) });
  }
  const messages = Array.isArray(req['messages']) ? req['messages'].filter(isObject) : [];
  messages.forEach((message, i) => {
    const role = String(message['role']);
    blocksOf(message['content']).forEach((block, j) => {
      const text = canonical(block);
      // A new message starts a new turn: the same block in another message is another prefix.
      parts.push({ key: `${i}.${j}:${role}:${text}`, text, breakpoint: isObject(block['cache_control']) });
    });
  });
  let hash = createHash('sha256')
    .update(`model:${String(req['model'])}`)
    .digest('hex');
  let cumulative = 0;
  return parts.map((part) => {
    hash = createHash('sha256').update(hash).update(part.key).digest('hex');
    const tokens = estimateTokens(part.text.length);
    cumulative += tokens;
    return { tokens, cumulativeTokens: cumulative, prefixHash: hash, breakpoint: part.breakpoint };
  });
}

/** How many blocks carry `cache_control` (the API refuses more than 4). */
export function breakpointCount(segments: readonly PromptSegment[]): number {
  return segments.filter((s) => s.breakpoint).length;
}
