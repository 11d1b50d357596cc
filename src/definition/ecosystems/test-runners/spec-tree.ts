/**
 * The passing tests of a spec-style report (mocha's spec reporter, jest `--verbose`):
 * suites are unmarked lines, tests are marked; the indentation says which suites hold a
 * test. Numbered lines (`1) title`, a failure) and pending ones (`- title`) are tests too,
 * so they never become suites. PURE.
 */
export function specTree(lines: readonly string[], join: string): string[] {
  const out: string[] = [];
  const suites: Array<{ indent: number; title: string }> = [];
  for (const line of lines) {
    const m = /^(\s*)(?:([✓✔√])|(\d+\)|-|✕|×))?\s*(.+?)\s*$/.exec(line);
    if (!m?.[4] || line.trim() === '') continue;
    const indent = m[1]?.length ?? 0;
    while (suites.length > 0 && (suites[suites.length - 1]?.indent ?? 0) >= indent) suites.pop();
    const title = m[4].replace(/\s+\(\d+(?:\.\d+)?\s*m?s\)$/, '');
    if (m[2] !== undefined) out.push([...suites.map((s) => s.title), title].join(join));
    else if (m[3] === undefined && indent > 0) suites.push({ indent, title });
  }
  return out;
}
