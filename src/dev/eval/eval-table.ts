/**
 * The eval's report: one row per task and mode (delivered, solved, invalid, iterations,
 * tokens, cost, wall time, why) and totals. Invalid rows (the gold patch fails the hidden
 * checks, the environment or the harness failed) are counted apart and never in a rate.
 * The gate's totals: oracle runs accepted (delivered and solved), no-op and sabotage runs
 * refused (not delivered), each out of its valid runs.
 */
import type { EvalRow } from './run-eval.js';

export interface GateTotal {
  readonly valid: number;
  readonly count: number;
}

export interface EvalTotals {
  readonly tasks: number;
  readonly runs: number;
  /** Tasks with an invalid row. */
  readonly invalid: number;
  /** Valid runs whose delivery passed the hidden checks, out of valid runs (`solvedOf`). */
  readonly solved: number;
  readonly solvedOf: number;
  readonly oracleAccepted?: GateTotal;
  readonly noOpRefused?: GateTotal;
  readonly sabotageRefused?: GateTotal;
  readonly iterations: number;
  readonly tokens: number;
  readonly costUsd: number;
  readonly wallMs: number;
}

function gate(rows: readonly EvalRow[], mode: string, counts: (r: EvalRow) => boolean): GateTotal | undefined {
  const valid = rows.filter((r) => r.mode === mode && !r.invalid);
  if (!rows.some((r) => r.mode === mode)) return undefined;
  return { valid: valid.length, count: valid.filter(counts).length };
}

export function evalTotals(rows: readonly EvalRow[], wallMs: number): EvalTotals {
  const valid = rows.filter((r) => !r.invalid);
  const oracle = gate(rows, 'oracle', (r) => r.delivered && r.solved);
  const noOp = gate(rows, 'no-op', (r) => !r.delivered);
  const sabotage = gate(rows, 'sabotage', (r) => !r.delivered);
  return {
    tasks: new Set(rows.map((r) => r.task)).size,
    runs: rows.length,
    invalid: new Set(rows.filter((r) => r.invalid).map((r) => r.task)).size,
    solved: valid.filter((r) => r.solved).length,
    solvedOf: valid.length,
    ...(oracle ? { oracleAccepted: oracle } : {}),
    ...(noOp ? { noOpRefused: noOp } : {}),
    ...(sabotage ? { sabotageRefused: sabotage } : {}),
    iterations: rows.reduce((s, r) => s + r.iterations, 0),
    tokens: rows.reduce((s, r) => s + r.tokens, 0),
    costUsd: rows.reduce((s, r) => s + r.costUsd, 0),
    wallMs,
  };
}

const secs = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;
const ratio = (t: GateTotal): string => `${t.count}/${t.valid}`;

export function evalTable(rows: readonly EvalRow[], totals: EvalTotals): string {
  const header = ['task', 'mode', 'delivered', 'solved', 'outcome', 'iterations', 'tokens', 'cost', 'wall', 'reason'];
  const cells = rows.map((r) => [
    r.task,
    r.mode,
    r.delivered ? 'yes' : 'no',
    r.invalid ? 'invalid' : r.solved ? 'yes' : 'no',
    r.outcome,
    String(r.iterations),
    String(r.tokens),
    `$${r.costUsd.toFixed(4)}`,
    secs(r.wallMs),
    `${r.invalid ? `invalid: ${r.invalidReason ?? ''}; ` : ''}${r.sabotage ? `sabotage ${r.sabotage}; ` : ''}${r.reason}`
      .replace(/\s+/g, ' ')
      .slice(0, 160),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]): string =>
    c.map((x, i) => (i === c.length - 1 ? x : x.padEnd(widths[i]!))).join('  ');
  const gateLine = [
    totals.oracleAccepted ? `oracle accepted ${ratio(totals.oracleAccepted)}` : undefined,
    totals.noOpRefused ? `no-op refused ${ratio(totals.noOpRefused)}` : undefined,
    totals.sabotageRefused ? `sabotage refused ${ratio(totals.sabotageRefused)}` : undefined,
  ].filter((s) => s !== undefined);
  return [
    line(header),
    ...cells.map(line),
    '',
    ...(gateLine.length > 0 ? [`gate: ${gateLine.join(' · ')} · invalid tasks ${totals.invalid}/${totals.tasks}`] : []),
    `solved ${totals.solved}/${totals.solvedOf} · ${totals.iterations} iterations · ${totals.tokens} tokens · $${totals.costUsd.toFixed(4)} · ${secs(totals.wallMs)} wall`,
  ].join('\n');
}
