/**
 * The bench's output: the table (each phase's rows, a target's PASS/MISS) or, with
 * --json, one object of every figure plus the run's facts, targets and verdicts. It is
 * printed at the end and also when the bench is interrupted (the partial figures).
 */
import { cpus, loadavg } from 'node:os';
import type { Figures } from './figures.js';

/** A row of the table: a figure's JSON key, its unit, and its target if any. */
export interface TableRow {
  readonly key: string;
  readonly unit: string;
  /** The target: at most this (in `unit`). */
  readonly max?: number;
  /**
   * A floor-relative target (issue 29): at most this, computed from the figures of the
   * same run (a bound the platform sets on this machine); undefined when the bound's
   * figure is missing (then the verdict is MISSING).
   */
  readonly maxFrom?: (results: Readonly<Figures>) => number | undefined;
  /** A target from below: at least this (in `unit`), e.g. a share of cache reads. */
  readonly min?: number;
}

/** The target of `row` in this run: its fixed `max`, or its floor-relative one. */
export function targetOf(row: TableRow, results: Readonly<Figures>): number | undefined {
  if (row.max !== undefined) return row.max;
  const bound = row.maxFrom?.(results);
  return bound === undefined || !Number.isFinite(bound) ? undefined : Math.round(bound * 1000) / 1000;
}

/** A figure's value as a number (undefined when absent or not numeric). */
export function figure(results: Readonly<Figures>, key: string): number | undefined {
  const value = results[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
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

function atLeast(min: number, value: number): Verdict {
  return Number.isFinite(value) && value >= min ? 'PASS' : 'MISS';
}

function table(results: Figures, rows: readonly TableRow[]): string {
  const cells: string[][] = [['metric', 'value', 'target', '']];
  for (const row of rows) {
    const { key, unit } = row;
    if (results[key] === undefined) continue;
    const max = targetOf(row, results);
    const value = Number(results[key]);
    const [target, pass] =
      row.min !== undefined
        ? [`≥ ${row.min} ${unit}`, atLeast(row.min, value)]
        : max === undefined
          ? ['', '']
          : [`≤ ${max} ${unit}`, verdict(max, value)];
    cells.push([key, `${results[key]} ${unit}`.trim(), target, pass]);
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
  const targeted = options.rows.filter((r) => r.max !== undefined || r.maxFrom !== undefined);
  const pass: Record<string, string> = {};
  const targets: Record<string, number | null> = {};
  for (const row of targeted) {
    const max = targetOf(row, results);
    targets[row.key] = max ?? null;
    pass[row.key] =
      results[row.key] === undefined || max === undefined ? 'MISSING' : verdict(max, Number(results[row.key]));
  }
  const minTargets: Record<string, number> = {};
  for (const row of options.rows) {
    if (row.min === undefined) continue;
    minTargets[row.key] = row.min;
    pass[row.key] = results[row.key] === undefined ? 'MISSING' : atLeast(row.min, Number(results[row.key]));
  }
  results.targets = targets;
  results.minTargets = minTargets;
  results.verdicts = pass;
  if (errors.length > 0) results.errors = errors;
  // One PASS/MISS line per target that has a figure, on stderr (stdout stays the JSON or the table).
  for (const [key, v] of Object.entries(pass)) {
    const target = key in minTargets ? `≥ ${minTargets[key]}` : `≤ ${targets[key]}`;
    if (v !== 'MISSING') process.stderr.write(`${v} ${key} = ${String(results[key])} (target ${target})\n`);
  }
  if (options.json) process.stdout.write(`${JSON.stringify(results)}\n`);
  else {
    const errorText = errors.length > 0 ? `errors:\n  ${errors.join('\n  ')}\n` : '';
    process.stdout.write(
      `\n${table(results, options.rows)}\n\n${errorText}bench took ${results.benchSeconds} s (load average ${results.loadAvgAtEnd} on ${results.cpus} CPUs)\n`,
    );
  }
}

/** `base + delta`, undefined when the base figure is missing. */
export function plus(base: number | undefined, delta: number): number | undefined {
  return base === undefined ? undefined : base + delta;
}
