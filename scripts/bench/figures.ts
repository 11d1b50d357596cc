/**
 * The figures a phase reports (JSON keys → values) and how they are rounded, so that
 * every phase prints ratios and per-step times alike.
 */

/** A phase's figures, merged into the bench's result object in insertion order. */
export type Figures = Record<string, unknown>;

/** `value` rounded to `places` decimals. */
export function roundTo(value: number, places: number): number {
  const factor = 10 ** places;
  return Math.round(value * factor) / factor;
}

/** A run's total (ms, events, activities) per step, to 0.1. */
export function perStep(total: number, steps: number): number {
  return roundTo(total / steps, 1);
}
