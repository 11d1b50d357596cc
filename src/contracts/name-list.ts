/**
 * A list of test names for a line a person reads (a run's reason, a verdict's summary,
 * the closing comment): the first few, then how many more. A real repository's base can
 * fail dozens of tests (pallets/itsdangerous with one broken helper: 56), and one line
 * naming them all buried the verdict it explained. The complete lists stay where tools
 * read them (the verdict's params, the baseline artifact). PURE.
 */

/** How many names a line shows before "(+N more)". */
export const NAMES_SHOWN = 6;

/** `a, b, c` — or `a, …, f (+50 more)` past `shown` names. */
export function nameList(names: readonly string[], shown: number = NAMES_SHOWN): string {
  if (names.length <= shown) return names.join(', ');
  return `${names.slice(0, shown).join(', ')} (+${names.length - shown} more)`;
}
