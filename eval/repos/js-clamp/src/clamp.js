/** Limits value to the range [lo, hi]. */
export function clamp(value, lo, hi) {
  return Math.max(value, lo);
}
