/**
 * What a model call may cost: USD prices per million tokens, per model id
 * (contracts/models.ts holds the table and the date its prices were checked), the cost of
 * a call that was made, and the fail-closed budget check run before EVERY call.
 *
 * A request is priced by its own prompt size where a model has a long-prompt band (Haiku
 * 5.5 above 100 000 tokens). Callers may pass their own table (deps.prices). A model the
 * table does not know is priced as its most expensive entry, so a USD budget fails closed,
 * and `unknownModelNotice` says so.
 *
 * The budget check: `budget` holds what was left of the run when the step started; the
 * step's own spend so far is subtracted. The next call's input is estimated (last turn's
 * input incl. cache + last output + newly appended chars / 4) because counting tokens
 * exactly would cost a request.
 */
import { canonicalModelId, MODELS, type ModelEntry, type ModelPrice } from '../../contracts/models.js';
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import { totalTokens, type RunBudget, type Usage } from '../../contracts/usage.js';

export type { ModelPrice } from '../../contracts/models.js';

export type PriceTable = Readonly<Record<string, ModelEntry>>;

export const DEFAULT_PRICES: PriceTable = MODELS;

const ZERO: ModelPrice = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

function mostExpensive(table: PriceTable): { readonly id: string; readonly entry: ModelEntry } {
  const [id, entry] = Object.entries(table).reduce<[string, ModelEntry]>(
    (max, e) => (e[1].output > max[1].output ? e : max),
    ['(empty price table)', ZERO],
  );
  return { id, entry };
}

function entryFor(model: string, table: PriceTable): ModelEntry | undefined {
  return table[model] ?? table[canonicalModelId(model)];
}

/** The price of one request to `model` whose prompt is `promptTokens` long (default: the short band). */
export function priceFor(model: string, table: PriceTable = DEFAULT_PRICES, promptTokens = 0): ModelPrice {
  const entry = entryFor(model, table) ?? mostExpensive(table).entry;
  const long = entry.longPrompt;
  return long !== undefined && promptTokens > long.thresholdTokens ? long : entry;
}

/** A warning naming a model the table cannot price, and what it is priced as; undefined when known. */
export function unknownModelNotice(model: string, table: PriceTable = DEFAULT_PRICES): string | undefined {
  if (entryFor(model, table) !== undefined) return undefined;
  const { id, entry } = mostExpensive(table);
  return `model ${model} has no price; it is priced as the most expensive known model, ${id} ($${entry.input} input, $${entry.output} output per MTok), so a USD budget errs on the safe side`;
}

/** One request's cost: every token of it at the band its prompt size falls in. */
export function costUsd(usage: Usage, model: string, table: PriceTable = DEFAULT_PRICES): number {
  const prompt = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  const p = priceFor(model, table, prompt);
  return (
    (usage.inputTokens * p.input +
      usage.outputTokens * p.output +
      usage.cacheReadTokens * p.cacheRead +
      usage.cacheWriteTokens * p.cacheWrite) /
    1_000_000
  );
}

export interface BudgetGuardInput {
  readonly budget: RunBudget;
  readonly usedUsage: Usage;
  readonly usedUsd: number;
  readonly estimatedInputTokens: number;
  readonly price: ModelPrice;
}

export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

export function assertWithinBudget(check: BudgetGuardInput): void {
  const usedTokens = totalTokens(check.usedUsage);
  const details = { usedUsd: round(check.usedUsd), usedTokens, estimatedInputTokens: check.estimatedInputTokens };
  const { maxUsd, maxTokens } = check.budget;
  if (maxUsd !== undefined) {
    const nextUsd = (check.estimatedInputTokens * check.price.input) / 1_000_000;
    if (check.usedUsd >= maxUsd || check.usedUsd + nextUsd > maxUsd) {
      throw new AgentError(
        FailureType.BudgetExhausted,
        `USD budget exhausted: $${details.usedUsd} spent in this step, $${round(maxUsd)} was left for the run`,
        {
          where: 'budget.maxUsd',
          expected: `the next call to stay within $${round(maxUsd)}`,
          details: { ...details, maxUsd },
        },
      );
    }
  }
  if (maxTokens !== undefined && usedTokens + check.estimatedInputTokens > maxTokens) {
    throw new AgentError(
      FailureType.BudgetExhausted,
      `token budget exhausted: ${usedTokens} tokens used in this step and the next call needs about ${check.estimatedInputTokens}, but ${maxTokens} were left for the run`,
      { where: 'budget.maxTokens', details: { ...details, maxTokens } },
    );
  }
}

function round(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}
