/**
 * C3L coordinates → prompt file candidates, in the order they are tried:
 * `<c1>/<c2>/<c3>/f_<edition>_<adaptation>.md`, then `<c1>/<c2>/<c3>/f_<edition>.md`
 * (the two-level fallback Breakdown implements; no `f_default*` fallback across editions).
 */

export const DEFAULT_EDITION = 'default';

export interface C3lCoordinates {
  readonly c1: string;
  readonly c2: string;
  readonly c3: string;
  readonly edition?: string;
  readonly adaptation?: string;
}

/** Candidate paths relative to the prompts root, `/`-separated. */
export function c3lCandidates(coords: C3lCoordinates): string[] {
  const edition = coords.edition ?? DEFAULT_EDITION;
  const dir = `${coords.c1}/${coords.c2}/${coords.c3}`;
  const plain = `${dir}/f_${edition}.md`;
  return coords.adaptation ? [`${dir}/f_${edition}_${coords.adaptation}.md`, plain] : [plain];
}
