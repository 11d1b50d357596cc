/**
 * The offline server's prompt cache: what it has seen, per prompt prefix, for five
 * minutes, so its `usage` reads like the API's and a bench can bill what caching and
 * context management do (issue 38). The API's rules, as documented for prompt caching:
 *
 * - a prefix is cached only where a block carries `cache_control` (a breakpoint), and
 *   only when it is at least the minimum cacheable length (1024 tokens here);
 * - a request reads the longest cached prefix that ends at a breakpoint or at one of the
 *   20 block boundaries before a breakpoint; reading refreshes the entry's lifetime;
 * - what lies between that prefix and the last breakpoint is written (billed as
 *   `cache_creation_input_tokens`), every breakpoint on the way becoming an entry;
 * - the rest, after the last breakpoint, is plain `input_tokens`.
 *
 * Token counts come from request-segments.ts (ceil(chars / 4) per block).
 */
import type { PromptSegment } from './request-segments.js';

export interface PromptCacheOptions {
  /** How long an entry lives after it was written or last read; default 5 minutes. */
  readonly ttlMs?: number;
  /** Shorter prefixes are never cached; default 1024 tokens. */
  readonly minCacheableTokens?: number;
  /** Block boundaries before a breakpoint that are checked for a hit; default 20. */
  readonly lookbackBlocks?: number;
  /** The clock (tests move it). */
  readonly now?: () => number;
}

export interface CacheUsage {
  readonly input_tokens: number;
  readonly cache_creation_input_tokens: number;
  readonly cache_read_input_tokens: number;
}

export const PROMPT_CACHE_TTL_MS = 5 * 60_000;
export const MIN_CACHEABLE_TOKENS = 1024;
export const CACHE_LOOKBACK_BLOCKS = 20;

export class PromptCache {
  private readonly entries = new Map<string, number>();
  private readonly ttlMs: number;
  private readonly minTokens: number;
  private readonly lookback: number;
  private readonly now: () => number;

  constructor(options: PromptCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? PROMPT_CACHE_TTL_MS;
    this.minTokens = options.minCacheableTokens ?? MIN_CACHEABLE_TOKENS;
    this.lookback = options.lookbackBlocks ?? CACHE_LOOKBACK_BLOCKS;
    this.now = options.now ?? Date.now;
  }

  clear(): void {
    this.entries.clear();
  }

  /** Live entries (expired ones are dropped first). */
  size(): number {
    this.prune(this.now());
    return this.entries.size;
  }

  /** Bills one request's prompt and updates the cache as the API would. */
  account(segments: readonly PromptSegment[]): CacheUsage {
    const now = this.now();
    this.prune(now);
    const total = segments.at(-1)?.cumulativeTokens ?? 0;
    const breakpoints = segments.flatMap((s, i) => (s.breakpoint ? [i] : []));
    const hit = this.longestHit(segments, breakpoints);
    const read = hit === undefined ? 0 : segments[hit]!.cumulativeTokens;
    if (hit !== undefined) this.entries.set(segments[hit]!.prefixHash, now + this.ttlMs);
    let written = read;
    for (const b of breakpoints) {
      const segment = segments[b]!;
      if ((hit !== undefined && b <= hit) || segment.cumulativeTokens < this.minTokens) continue;
      this.entries.set(segment.prefixHash, now + this.ttlMs);
      written = segment.cumulativeTokens;
    }
    return {
      input_tokens: total - written,
      cache_creation_input_tokens: written - read,
      cache_read_input_tokens: read,
    };
  }

  /** Index of the last block of the longest cached prefix a breakpoint can reach. */
  private longestHit(segments: readonly PromptSegment[], breakpoints: readonly number[]): number | undefined {
    let best: number | undefined;
    for (const b of breakpoints) {
      for (let i = b; i >= 0 && i >= b - this.lookback; i--) {
        if (best !== undefined && i <= best) break;
        if (this.entries.has(segments[i]!.prefixHash)) {
          best = i;
          break;
        }
      }
    }
    return best;
  }

  private prune(now: number): void {
    for (const [key, expires] of this.entries) if (expires <= now) this.entries.delete(key);
  }
}
