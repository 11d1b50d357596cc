/**
 * Phase `tokens`: what a long step costs in billed dollars (issue 38). The same scripted
 * 40-turn step (long-step.ts) runs through the real tool loop, each time on a fresh
 * offline model server that bills prompt caching like the API: with every tool result
 * sent whole (`none`), with the default context management (`collapse`), with masking, and
 * (for comparison only, as the offline server models it) with the API's own context
 * editing. Printed: billed
 * input tokens (uncached, cache writes, cache reads), output tokens and USD of each, and
 * the prompt size of the first and last 10 turns. No Temporal: it is the tool loop's cost.
 *
 *   tokensManagedVsFloorUsd      managed USD over the floor below (target ≤ 1.5)
 *   tokensManagedVsUnmanagedUsd  managed USD over unmanaged USD (regression guard ≤ 0.85; the
 *                                issue's 0.5 lies below the floor, 0.543, so no strategy that
 *                                shows the model each output can reach it on this step)
 *   tokensLateVsEarlyInput       managed: mean prompt of the last 10 turns over the first 10 (≤ 1.5)
 *   tokensCacheReadShare         managed: cache reads over all input tokens after turn 2 (≥ 0.8)
 *
 * Beside them, for reading the targets against what is possible:
 *   tokensFloorVsUnmanagedUsd    the least any strategy can bill that shows the model every
 *                                tool output whole at least once: the unmanaged run's last
 *                                prompt billed once at the input price, plus the output
 *   tokensMaskVsUnmanagedUsd     masking (older outputs as placeholders, every turn kept)
 *   tokensKeepOneVsUnmanagedUsd  masking with only the newest output kept whole, in chunks of 1
 *   tokensApiClearVsUnmanagedUsd the API's context editing, as the offline server models it
 */
import type { LlmUsage } from '../../../src/activities/model/llm-client.js';
import { priceFor } from '../../../src/activities/model/pricing.js';
import { DEFAULT_MODEL } from '../../../src/definition/normalise/normalise-agent.js';
import { ContextStrategy, DEFAULT_CONTEXT_MANAGEMENT } from '../../../src/contracts/model-options.js';
import { roundTo, type Figures } from '../figures.js';
import { note } from '../log.js';
import type { BenchPhase } from '../phase.js';
import { check } from '../runs.js';
import { LONG_STEP_TURNS, runLongStep, type LongStepRun } from '../long-step.js';

const WINDOW = 10;

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);
const mean = (values: readonly number[]): number => (values.length === 0 ? 0 : sum(values) / values.length);
const read = (u: LlmUsage): number => u.cache_read_input_tokens ?? 0;
const written = (u: LlmUsage): number => u.cache_creation_input_tokens ?? 0;
/** Every input token of a turn, at whatever rate it was billed: the prompt's size. */
const prompt = (u: LlmUsage): number => u.input_tokens + read(u) + written(u);

interface Bill {
  readonly usd: number;
  readonly uncached: number;
  readonly cacheWrite: number;
  readonly cacheRead: number;
  readonly output: number;
  readonly first: readonly number[];
  readonly last: readonly number[];
  readonly lateVsEarly: number;
  readonly readShare: number;
}

function bill(name: string, run: LongStepRun): Bill {
  const turns = run.turns;
  const prompts = turns.map(prompt);
  const first = prompts.slice(0, WINDOW);
  const last = prompts.slice(-WINDOW);
  const afterSecond = turns.slice(2);
  const b: Bill = {
    usd: run.outcome.costUsd,
    uncached: sum(turns.map((u) => u.input_tokens)),
    cacheWrite: sum(turns.map(written)),
    cacheRead: sum(turns.map(read)),
    output: sum(turns.map((u) => u.output_tokens)),
    first,
    last,
    lateVsEarly: mean(last) / mean(first),
    readShare: sum(afterSecond.map(read)) / sum(afterSecond.map(prompt)),
  };
  note(
    `  ${name}: $${b.usd.toFixed(4)}, billed input ${b.uncached + b.cacheWrite + b.cacheRead} tokens ` +
      `(uncached ${b.uncached}, cache writes ${b.cacheWrite}, cache reads ${b.cacheRead}), output ${b.output}`,
  );
  note(`    prompt per turn, first ${WINDOW}: ${first.join(' ')}`);
  note(`    prompt per turn, last ${WINDOW}:  ${last.join(' ')}`);
  return b;
}

function figures(prefix: string, b: Bill): Figures {
  return {
    [`${prefix}Usd`]: roundTo(b.usd, 5),
    [`${prefix}UncachedInput`]: b.uncached,
    [`${prefix}CacheWrite`]: b.cacheWrite,
    [`${prefix}CacheRead`]: b.cacheRead,
    [`${prefix}Output`]: b.output,
    [`${prefix}FirstTurnsInput`]: b.first,
    [`${prefix}LastTurnsInput`]: b.last,
  };
}

/**
 * The least a strategy that shows every tool output whole at least once can bill: the
 * unmanaged run's last prompt (system prompt, issue, step prompt, every output and every
 * model message, all whole) billed once at the plain input price, never a cache write
 * (1.25x) and no cache read, plus the output tokens (the same in every run: scripted).
 */
function floorOf(model: string, run: LongStepRun): number {
  const last = run.turns.at(-1);
  if (last === undefined) return 0;
  const p = priceFor(model);
  const output = sum(run.turns.map((u) => u.output_tokens));
  return (prompt(last) * p.input + output * p.output) / 1_000_000;
}

export const tokens: BenchPhase = {
  name: 'tokens',
  offline: true,
  budgetMs: 120_000,
  rows: [
    { key: 'tokensManagedVsFloorUsd', unit: '', max: 1.5 },
    { key: 'tokensManagedVsUnmanagedUsd', unit: '', max: 0.85 },
    { key: 'tokensLateVsEarlyInput', unit: '', max: 1.5 },
    { key: 'tokensCacheReadShare', unit: '', min: 0.8 },
    { key: 'tokensFloorVsUnmanagedUsd', unit: '' },
    { key: 'tokensMaskVsUnmanagedUsd', unit: '' },
    { key: 'tokensMaskLateVsEarlyInput', unit: '' },
    { key: 'tokensKeepOneVsUnmanagedUsd', unit: '' },
    { key: 'tokensKeepOneLateVsEarlyInput', unit: '' },
    { key: 'tokensUnmanagedLateVsEarlyInput', unit: '' },
    { key: 'tokensApiClearVsUnmanagedUsd', unit: '' },
    { key: 'tokensManagedUsd', unit: 'USD' },
    { key: 'tokensUnmanagedUsd', unit: 'USD' },
  ],
  title: () =>
    `tokens (one ${LONG_STEP_TURNS}-turn step on ${DEFAULT_MODEL.model}, without and with context management)`,
  async run(): Promise<Figures> {
    const model = DEFAULT_MODEL.model;
    const unmanagedRun = await runLongStep(model, { ...DEFAULT_CONTEXT_MANAGEMENT, strategy: ContextStrategy.None });
    const managedRun = await runLongStep(model, DEFAULT_CONTEXT_MANAGEMENT);
    const maskRun = await runLongStep(model, { ...DEFAULT_CONTEXT_MANAGEMENT, strategy: ContextStrategy.Mask });
    const keepOneRun = await runLongStep(model, {
      ...DEFAULT_CONTEXT_MANAGEMENT,
      strategy: ContextStrategy.Mask,
      keepToolResults: 1,
      maskChunk: 1,
    });
    const apiClearRun = await runLongStep(model, { ...DEFAULT_CONTEXT_MANAGEMENT, strategy: ContextStrategy.ApiClear });
    const runs = [
      ['unmanaged', unmanagedRun],
      ['managed', managedRun],
      ['mask', maskRun],
      ['keep-one', keepOneRun],
      ['api-clear', apiClearRun],
    ] as const;
    for (const [name, run] of runs)
      check(`${name} long step`, run.turns.length === LONG_STEP_TURNS, `${run.turns.length} turns`);
    const unmanaged = bill('unmanaged (every tool result whole)', unmanagedRun);
    const managed = bill(`managed (${DEFAULT_CONTEXT_MANAGEMENT.strategy}, defaults)`, managedRun);
    const mask = bill('mask (older outputs as placeholders, keep 2, chunks of 8)', maskRun);
    const keepOne = bill('managed, only the newest output kept (mask, keep 1, chunks of 1)', keepOneRun);
    const apiClear = bill("api-clear (the API's context editing as the offline server models it)", apiClearRun);
    const floorUsd = floorOf(model, unmanagedRun);
    note(
      `  floor: $${floorUsd.toFixed(4)} (every token the model must see once, at the input price, plus the output): ` +
        `${roundTo(floorUsd / unmanaged.usd, 3)} of unmanaged`,
    );
    return {
      tokensModel: model,
      tokensTurns: LONG_STEP_TURNS,
      tokensManagedVsFloorUsd: roundTo(managed.usd / floorUsd, 3),
      tokensManagedVsUnmanagedUsd: roundTo(managed.usd / unmanaged.usd, 3),
      tokensLateVsEarlyInput: roundTo(managed.lateVsEarly, 2),
      tokensCacheReadShare: roundTo(managed.readShare, 3),
      tokensUnmanagedLateVsEarlyInput: roundTo(unmanaged.lateVsEarly, 2),
      tokensUnmanagedCacheReadShare: roundTo(unmanaged.readShare, 3),
      tokensFloorVsUnmanagedUsd: roundTo(floorUsd / unmanaged.usd, 3),
      tokensMaskVsUnmanagedUsd: roundTo(mask.usd / unmanaged.usd, 3),
      tokensMaskLateVsEarlyInput: roundTo(mask.lateVsEarly, 2),
      tokensKeepOneVsUnmanagedUsd: roundTo(keepOne.usd / unmanaged.usd, 3),
      tokensKeepOneLateVsEarlyInput: roundTo(keepOne.lateVsEarly, 2),
      tokensApiClearVsUnmanagedUsd: roundTo(apiClear.usd / unmanaged.usd, 3),
      ...figures('tokensManaged', managed),
      ...figures('tokensUnmanaged', unmanaged),
    };
  },
};
