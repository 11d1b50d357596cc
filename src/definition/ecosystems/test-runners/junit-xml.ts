/**
 * The JUnit XML reader every report parser shares (pytest's report, pytest-junit.ts;
 * Surefire's, surefire-xml.ts; CTest's, ctest-junit.ts). PURE.
 *
 * Hand-written rather than a dependency: no XML parser is in the lockfile, and what is
 * read is one element shape, `<testcase classname name file line>` holding `<failure
 * message>` or `<error message>` text, from a file a runner wrote a moment ago. The reader
 * handles attributes in either quote, self-closing testcases, the five named entities,
 * numeric references and CDATA; it ignores everything else (properties, system-out,
 * skipped).
 */

/** One `<testcase>`: group 1 its attributes, group 2 its body (unset when self-closing). */
export const TESTCASE = /<testcase\b((?:[^>"']|"[^"]*"|'[^']*')*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g;
/** A `<failure>` or `<error>` in a testcase's body: 1 which, 2 its attributes, 3 its text. */
export const PROBLEM = /<(failure|error)\b((?:[^>"']|"[^"]*"|'[^']*')*?)(?:\/>|>([\s\S]*?)<\/\1>)/;

/** The testcases of a report that ran: those without a `<skipped>` child. */
export function ranInXml(xml: string): number {
  let n = 0;
  for (const m of xml.matchAll(TESTCASE)) if (!/<skipped\b/.test(m[2] ?? '')) n += 1;
  return n;
}

export function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    if (m[1]) out[m[1]] = decode(m[2] ?? m[3] ?? '');
  }
  return out;
}

const NAMED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function decode(text: string): string {
  return text.replace(/<!\[CDATA\[([\s\S]*?)\]\]>|&(#x[0-9a-f]+|#\d+|\w+);/gi, (all, cdata: string, ref: string) => {
    if (cdata !== undefined) return cdata;
    if (ref.startsWith('#x') || ref.startsWith('#X')) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(parseInt(ref.slice(1), 10));
    return NAMED[ref] ?? all;
  });
}
