/**
 * What the runners' counts (TestRunner.count) share: reading a summary line's `N kind`
 * phrases, and counting result lines. PURE.
 */

type Lines = readonly string[];

/** The kinds of a summary phrase that are tests that ran (skipped and todo ones are not). */
const RAN = /^(passed|failed|errors?|failing|passing|fail|pass)$/;

/**
 * Sums the numbers of `kinds` in the `N kind` phrases of the lines `line` matches. A line
 * counts only when it names one of `kinds` or says `no tests` (a `3 warnings in 0.5s` is
 * not a count of zero); undefined when no line counts.
 */
export function summed(lines: Lines, line: RegExp, kinds: RegExp = RAN): number | undefined {
  let total: number | undefined;
  for (const text of lines) {
    const m = line.exec(text);
    if (!m) continue;
    const phrase = m[1] ?? text;
    let n = 0;
    let says = /\bno tests\b/.test(phrase);
    for (const p of phrase.matchAll(/(\d+) ([a-z]+)/g)) {
      if (!kinds.test(p[2] ?? '')) continue;
      n += Number(p[1]);
      says = true;
    }
    if (says) total = (total ?? 0) + n;
  }
  return total;
}

/** Counts the lines matching `line`; undefined when none does. */
export function counted(lines: Lines, line: RegExp): number | undefined {
  const n = lines.filter((l) => line.test(l)).length;
  return n === 0 ? undefined : n;
}
