/**
 * USD prices per million tokens, keyed by model-name prefix (longest prefix wins).
 * One default table here; callers may pass their own (deps.prices). An unknown
 * model is priced as the most expensive entry, so a USD budget fails closed.
 */
import type { Usage } from '../../contracts/usage.js';

export interface ModelPrice {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
}

export type PriceTable = Readonly<Record<string, ModelPrice>>;

export const DEFAULT_PRICES: PriceTable = {
  'claude-opus': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  'claude-sonnet': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-haiku': { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
};

export function priceFor(model: string, table: PriceTable = DEFAULT_PRICES): ModelPrice {
  const prefix = Object.keys(table)
    .filter((p) => model.startsWith(p))
    .sort((a, b) => b.length - a.length)[0];
  const found = prefix === undefined ? undefined : table[prefix];
  if (found) return found;
  const all = Object.values(table);
  return all.reduce<ModelPrice>(
    (max, p) => (p.output > max.output ? p : max),
    all[0] ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  );
}

export function costUsd(usage: Usage, model: string, table: PriceTable = DEFAULT_PRICES): number {
  const p = priceFor(model, table);
  return (
    (usage.inputTokens * p.input +
      usage.outputTokens * p.output +
      usage.cacheReadTokens * p.cacheRead +
      usage.cacheWriteTokens * p.cacheWrite) /
    1_000_000
  );
}
