/**
 * What a bench phase is, and how the driver runs one: its title, a time budget (a stuck
 * phase is abandoned, never waited for), its figures merged into the results, and a
 * failure recorded as an error while the bench goes on with the next phase.
 */
import type { Config } from './config.js';
import type { BenchContext } from './context.js';
import { withTimeout } from './durable.js';
import type { Figures } from './figures.js';
import { note } from './log.js';
import type { TableRow } from './report.js';

export interface BenchPhase {
  /** The name --only selects it by. */
  readonly name: string;
  /** Phases that read this one's figures: selecting one of them runs this one too. */
  readonly neededBy?: readonly string[];
  /**
   * Runs without Temporal (ctx.server, ctx.client and ctx.bundlePath unused): when every
   * selected phase is offline (`--only tokens`), the bench starts no dev server.
   */
  readonly offline?: boolean;
  /** The phase's time budget (default 240 s). */
  readonly budgetMs?: number;
  /** This phase's rows of the table, in order (a row may show a figure of an earlier phase). */
  readonly rows: readonly TableRow[];
  /** The line printed as the phase starts; its first word names the phase in a timeout. */
  title(cfg: Config): string;
  /** Runs before the title, outside the budget; a failure here ends the bench. */
  prepare?(): void;
  run(ctx: BenchContext): Promise<Figures>;
  /** After the figures are recorded: throws if they say the phase failed. */
  check?(figures: Figures, cfg: Config): void;
}

const DEFAULT_BUDGET_MS = 240_000;

export function selected(phase: BenchPhase, only: ReadonlySet<string> | undefined): boolean {
  return only === undefined || only.has(phase.name) || (phase.neededBy ?? []).some((n) => only.has(n));
}

/** Runs one phase into `results`; a failure or timeout is pushed onto `errors`. */
export async function runPhase(
  phase: BenchPhase,
  ctx: BenchContext,
  results: Figures,
  errors: string[],
): Promise<void> {
  phase.prepare?.();
  const name = phase.title(ctx.cfg);
  const started = performance.now();
  note(`${name}…`);
  try {
    // A stuck phase is abandoned (its workers are killed at the end), never waited for.
    const recorded = phase.run(ctx).then((figures) => {
      Object.assign(results, figures);
      phase.check?.(figures, ctx.cfg);
    });
    await withTimeout(recorded, phase.budgetMs ?? DEFAULT_BUDGET_MS, `phase ${name.split(' ')[0]}`);
  } catch (err) {
    errors.push(`${name}: ${err instanceof Error ? err.message : String(err)}`);
    note(`  ${name} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  note(`  (${Math.round((performance.now() - started) / 1000)} s)`);
}
