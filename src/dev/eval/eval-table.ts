/** The eval's report: one row per task (solved, iterations, tokens, cost, wall time) and totals. */
import type { EvalRow } from './run-eval.js';

export interface EvalTotals {
  readonly tasks: number;
  readonly solved: number;
  readonly iterations: number;
  readonly tokens: number;
  readonly costUsd: number;
  readonly wallMs: number;
}

export function evalTotals(rows: readonly EvalRow[], wallMs: number): EvalTotals {
  return {
    tasks: rows.length,
    solved: rows.filter((r) => r.solved).length,
    iterations: rows.reduce((s, r) => s + r.iterations, 0),
    tokens: rows.reduce((s, r) => s + r.tokens, 0),
    costUsd: rows.reduce((s, r) => s + r.costUsd, 0),
    wallMs,
  };
}

const secs = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;

export function evalTable(rows: readonly EvalRow[], totals: EvalTotals): string {
  const header = ['task', 'solved', 'outcome', 'iterations', 'tokens', 'cost', 'wall', 'reason'];
  const cells = rows.map((r) => [
    r.task,
    r.solved ? 'yes' : 'no',
    r.outcome,
    String(r.iterations),
    String(r.tokens),
    `$${r.costUsd.toFixed(4)}`,
    secs(r.wallMs),
    r.reason.replace(/\s+/g, ' ').slice(0, 100),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]): string =>
    c.map((x, i) => (i === c.length - 1 ? x : x.padEnd(widths[i]!))).join('  ');
  return [
    line(header),
    ...cells.map(line),
    '',
    `solved ${totals.solved}/${totals.tasks} · ${totals.iterations} iterations · ${totals.tokens} tokens · $${totals.costUsd.toFixed(4)} · ${secs(totals.wallMs)} wall`,
  ].join('\n');
}
