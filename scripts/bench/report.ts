/**
 * The bench's output: the table (each phase's rows, a target's PASS/MISS) or, with
 * --json, one object of every figure plus the run's facts, targets and verdicts. It is
 * printed at the end and also when the bench is interrupted (the partial figures).
 */
import { cpus, loadavg } from 'node:os';
import type { Figures } from './figures.js';

/** A row of the table: a figure's JSON key, its unit, and its target (issue 14's) if any. */
export interface TableRow {
  readonly key: string;
  readonly unit: string;
  /** The target: at most this (in `unit`). */
  readonly max?: number;
}

export interface ReportOptions {
  readonly json: boolean;
  readonly quick: boolean;
  /** performance.now() at the bench's start. */
  readonly t0: number;
  /** Every phase's rows, in the table's order (their targets, in this order, in the JSON). */
  readonly rows: readonly TableRow[];
}

type Verdict = 'PASS' | 'MISS';

function verdict(max: number, value: number): Verdict {
  return Number.isFinite(value) && value <= max ? 'PASS' : 'MISS';
}

function table(results: Figures, rows: readonly TableRow[]): string {
  const cells: string[][] = [['metric', 'value', 'target', '']];
  for (const { key, unit, max } of rows) {
    if (results[key] === undefined) continue;
    cells.push([
      key,
      `${results[key]} ${unit}`.trim(),
      max === undefined ? '' : `≤ ${max} ${unit}`,
      max === undefined ? '' : verdict(max, Number(results[key])),
    ]);
  }
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  return cells
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** Prints the results (also the partial ones when the bench is interrupted). */
export function report(results: Figures, errors: readonly string[], options: ReportOptions): void {
  results.benchSeconds = Math.round((performance.now() - options.t0) / 1000);
  results.quick = options.quick;
  results.cpus = cpus().length;
  results.loadAvgAtEnd = Math.round(loadavg()[0]! * 10) / 10;
  const targets = options.rows.filter((r): r is TableRow & { max: number } => r.max !== undefined);
  const pass: Record<string, string> = {};
  for (const { key, max } of targets)
    pass[key] = results[key] === undefined ? 'MISSING' : verdict(max, Number(results[key]));
  results.targets = Object.fromEntries(targets.map((r) => [r.key, r.max]));
  results.verdicts = pass;
  if (errors.length > 0) results.errors = errors;
  if (options.json) process.stdout.write(`${JSON.stringify(results)}\n`);
  else {
    const errorText = errors.length > 0 ? `errors:\n  ${errors.join('\n  ')}\n` : '';
    process.stdout.write(
      `\n${table(results, options.rows)}\n\n${errorText}bench took ${results.benchSeconds} s (load average ${results.loadAvgAtEnd} on ${results.cpus} CPUs)\n`,
    );
  }
}
