/**
 * One failing test as every runner's parser reports it, and the helpers they share.
 * PURE. The name is the key the baseline split compares (a test failing on the base
 * commit is matched by name), so each runner's name is the one the runner itself
 * prints and accepts back (pytest's node id, go's `TestX/sub`, cargo's `mod::name`).
 */

export interface FailedTest {
  readonly name: string;
  readonly file?: string;
  /** The few lines that explain the failure: the assertion, expected/actual, the panic. */
  readonly excerpt?: string;
  /**
   * `load`: not a test but a file or package that could not be loaded (pytest collection
   * error, go build failure, jest "Test suite failed to run", cargo compile error).
   */
  readonly scope?: 'load';
}

const EXCERPT_LINES = 6;
/** Excerpts kept in a validator's params (which go into workflow history); later failures keep their names. */
export const MAX_EXCERPTS = 20;
const EXCERPT_CHARS = 400;

export function failedTest(name: string, file?: string, excerptLines?: readonly string[], scope?: 'load'): FailedTest {
  const excerpt = excerptLines === undefined ? undefined : makeExcerpt(excerptLines);
  return {
    name: name.trim(),
    ...(file ? { file } : {}),
    ...(excerpt ? { excerpt } : {}),
    ...(scope ? { scope } : {}),
  };
}

/** The first few non-blank lines, dedented, each trimmed at the end, capped in lines and characters. */
export function makeExcerpt(lines: readonly string[]): string | undefined {
  const kept = lines.map((l) => l.replace(/\s+$/, '')).filter((l) => l.trim() !== '');
  if (kept.length === 0) return undefined;
  // Dedented by the first line's indent: the message's own indentation (a diff) stays.
  const indent = /^\s*/.exec(kept[0] ?? '')?.[0].length ?? 0;
  const text = kept
    .slice(0, EXCERPT_LINES)
    .map((l) => l.replace(new RegExp(`^\\s{0,${indent}}`), ''))
    .join('\n');
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS - 1)}…` : text;
}

/** A stack frame line (`at fn (file:1:2)`), which explains nothing the assertion did not. */
export function isStackLine(line: string): boolean {
  return /^\s*at\s+\S/.test(line);
}

/** The file of the first stack frame outside node's internals and node_modules: the test's own (mocha, uvu). */
export function firstOwnFrame(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    if (!isStackLine(line)) continue;
    const m = /\(?((?:file:\/\/)?[^\s()]+?):\d+:\d+\)?\s*$/.exec(line);
    const file = m?.[1]?.replace(/^file:\/\//, '');
    if (file && !file.startsWith('node:') && !file.includes('node_modules/')) return file;
  }
  return undefined;
}

/**
 * The same test reported twice (inline and in a recap): keep one, preferring the entry
 * with a file, then the one with an excerpt. Same-named failures in different files
 * (jest's "Test suite failed to run") stay separate.
 */
export function dedupe(tests: readonly FailedTest[]): FailedTest[] {
  const out: FailedTest[] = [];
  for (const t of tests) {
    const i = out.findIndex((o) => o.name === t.name && (o.file === t.file || !o.file || !t.file));
    const kept = out[i];
    if (kept === undefined) {
      out.push(t);
      continue;
    }
    out[i] = {
      ...kept,
      ...(!kept.file && t.file ? { file: t.file } : {}),
      ...(!kept.excerpt && t.excerpt ? { excerpt: t.excerpt } : {}),
    };
  }
  return out;
}

/** The failures as params carry them: the first MAX_EXCERPTS with their excerpts, the rest named only. */
export function capExcerpts(failures: readonly FailedTest[]): FailedTest[] {
  return failures.map((f, i) => {
    if (i < MAX_EXCERPTS || f.excerpt === undefined) return f;
    const { excerpt: _dropped, ...rest } = f;
    return rest;
  });
}
