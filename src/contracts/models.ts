/**
 * The Claude models the agent knows: ids, the short aliases agent files may use, prices
 * per million tokens and the two capabilities `validate` checks. One table, read by the
 * definition (aliases, `validate`'s warnings) and the model activity (USD cost, budgets).
 *
 * Checked 2026-11-26 against Anthropic's pricing and model pages (platform.claude.com
 * docs, as stored in the docs search corpus): Opus 5.5 $4/$20 (cache write $5, read
 * $0.20), Sonnet 5.5 $2/$10 ($2.50, $0.10 since its cache-read cut of 2026-10-07), Haiku
 * 5.5 $0.10/$0.50 ($0.125, $0.01) up to a 100 000-token prompt and five times that above,
 * Fable 5.2 $8/$40 ($10, $0.20). `cacheWrite` is the 5-minute write (the one our requests
 * make). A model missing here is priced as the most expensive entry (pricing.ts), so a
 * USD budget fails closed; re-check the prices when a model is added.
 */

export interface ModelPrice {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
}

export interface ModelEntry extends ModelPrice {
  /** Above this many prompt tokens (input + cache reads + writes) the whole request costs `longPrompt`. */
  readonly longPrompt?: ModelPrice & { readonly thresholdTokens: number };
  /** `output_config.effort` is accepted (false: the API refuses it). */
  readonly effort?: boolean;
  /** Thinking cannot be disabled (`thinking: disabled` is refused). */
  readonly thinkingAlwaysOn?: boolean;
}

const price = (input: number, output: number, cacheWrite: number, cacheRead: number): ModelPrice => ({
  input,
  output,
  cacheWrite,
  cacheRead,
});

const OPUS_4_5 = price(5, 25, 6.25, 0.5);
const OPUS_4 = price(15, 75, 18.75, 1.5);
const SONNET_4 = { ...price(3, 15, 3.75, 0.3), effort: false };
const FABLE_5_1 = { ...price(10, 50, 12.5, 0.25), thinkingAlwaysOn: true };
const FABLE_5 = { ...price(10, 50, 12.5, 1), thinkingAlwaysOn: true };
const FABLE_5_2 = { ...price(8, 40, 10, 0.2), thinkingAlwaysOn: true };

/** Canonical ids (no date suffix) → entry. The first four are today's line-up. */
export const MODELS: Readonly<Record<string, ModelEntry>> = {
  'claude-fable-5-2': FABLE_5_2,
  'claude-opus-5-5': { ...price(4, 20, 5, 0.2), thinkingAlwaysOn: true },
  'claude-sonnet-5-5': price(2, 10, 2.5, 0.1),
  'claude-haiku-5-5': {
    ...price(0.1, 0.5, 0.125, 0.01),
    longPrompt: { ...price(0.5, 2.5, 0.625, 0.05), thresholdTokens: 100_000 },
  },
  'claude-mythos-5-2': FABLE_5_2,
  'claude-fable-5-1': FABLE_5_1,
  'claude-mythos-5-1': FABLE_5_1,
  'claude-fable-5': FABLE_5,
  'claude-mythos-5': FABLE_5,
  'claude-opus-5': OPUS_4_5,
  'claude-opus-4-8': OPUS_4_5,
  'claude-opus-4-7': OPUS_4_5,
  'claude-opus-4-6': OPUS_4_5,
  'claude-opus-4-5': OPUS_4_5,
  'claude-opus-4-1': { ...OPUS_4, effort: false },
  'claude-opus-4-0': { ...OPUS_4, effort: false },
  'claude-opus-4': { ...OPUS_4, effort: false },
  'claude-sonnet-5': price(2, 10, 2.5, 0.2),
  'claude-sonnet-4-6': price(3, 15, 3.75, 0.3),
  'claude-sonnet-4-5': SONNET_4,
  'claude-sonnet-4-0': SONNET_4,
  'claude-sonnet-4': SONNET_4,
  'claude-3-7-sonnet': SONNET_4,
  'claude-haiku-4-5': { ...price(1, 5, 1.25, 0.1), effort: false },
  'claude-3-5-haiku': { ...price(0.8, 4, 1, 0.08), effort: false },
};

/** Upstream model names (`runner.flow.defaultModel`, a step's `model`) → today's ids. */
export const MODEL_ALIASES: Readonly<Record<string, string>> = {
  sonnet: 'claude-sonnet-5-5',
  opus: 'claude-opus-5-5',
  haiku: 'claude-haiku-5-5',
  fable: 'claude-fable-5-2',
};

/** The id without a snapshot date (`-20251001`) or the 1M-context suffix (`[1m]`). */
export function canonicalModelId(id: string): string {
  return id.replace(/\[1m\]$/i, '').replace(/-\d{8}$/, '');
}

/** The entry of a model id or alias, or undefined for a model this table does not know. */
export function knownModel(idOrAlias: string): ModelEntry | undefined {
  return MODELS[canonicalModelId(MODEL_ALIASES[idOrAlias] ?? idOrAlias)];
}
