/**
 * Rust keeps unit tests inside source files: a `#[cfg(test)] mod tests { … }` (or a
 * `#[test] fn`) in `src/lib.rs`. A branch whose only change to such a file is inside those
 * items changed the tests, not the code under test, though the path is a source file's:
 * rewriting the expected values there is the same cheat as in `tests/` (fixed-in-tests-only).
 *
 * The items are found by a small scanner, not a Rust parser: an attribute `#[cfg(test)]`,
 * `#[test]` or `#[<path>::test]` at the start of a line, then the item it is on, up to its
 * first `;` before any brace or the brace that closes its first `{`. Strings (raw ones
 * too), char literals and comments (nested block comments too) are skipped so that a brace
 * inside them does not count; a lifetime (`'a`) is not a char literal. A file under
 * `#![cfg(test)]` is test code whole. PURE.
 */

/** 1-based, inclusive line ranges of the test items of a Rust source text. */
export interface LineRange {
  readonly from: number;
  readonly to: number;
}

const TEST_ATTRIBUTE = /^[ \t]*#\[\s*(?:cfg\s*\(\s*test\s*\)|(?:\w+::)*test(?:\s*\([^)\]]*\))?)\s*\]/;
const INNER_TEST_ATTRIBUTE = /^[ \t]*#!\[\s*cfg\s*\(\s*test\s*\)\s*\]/m;
const CHAR_LITERAL = /^'(?:\\(?:u\{[0-9a-fA-F]{1,6}\}|x[0-9a-fA-F]{2}|.)|[^\\'\n])'/;
const RAW_STRING = /^b?r(#*)"/;

export function rustTestItems(text: string): LineRange[] {
  const ranges: LineRange[] = [];
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  // `#![cfg(test)]`: the whole file (module) is compiled for tests only.
  if (INNER_TEST_ATTRIBUTE.test(text)) return [{ from: 1, to: lineStarts.length }];
  const lineOf = (offset: number): number => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (lineStarts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
  for (let line = 0; line < lineStarts.length; line++) {
    const start = lineStarts[line]!;
    if (ranges.some((r) => r.from <= line + 1 && line + 1 <= r.to)) continue;
    if (!TEST_ATTRIBUTE.test(text.slice(start, lineStarts[line + 1] ?? text.length))) continue;
    const end = itemEnd(text, start);
    if (end !== undefined) ranges.push({ from: line + 1, to: lineOf(end) });
  }
  return ranges;
}

/** Offset of the `;` or closing `}` that ends the item starting at `from`; undefined when unbalanced. */
function itemEnd(text: string, from: number): number | undefined {
  let depth = 0;
  let i = from;
  while (i < text.length) {
    const skipped = skipNonCode(text, i);
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    const c = text[i]!;
    if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) return i;
      if (depth < 0) return undefined;
    } else if (c === ';' && depth === 0) return i;
    i++;
  }
  return undefined;
}

/** Past a comment, string or char literal starting at `i`; `i` itself when there is none. */
function skipNonCode(text: string, i: number): number {
  const rest = (n: number) => text.slice(i, i + n);
  if (rest(2) === '//') {
    const newline = text.indexOf('\n', i);
    return newline === -1 ? text.length : newline;
  }
  if (rest(2) === '/*') return pastBlockComment(text, i);
  const raw = RAW_STRING.exec(text.slice(i, i + 260));
  if (raw !== null && (i === 0 || !/\w/.test(text[i - 1]!))) {
    const close = text.indexOf(`"${raw[1]}`, i + raw[0].length);
    return close === -1 ? text.length : close + 1 + raw[1]!.length;
  }
  if (text[i] === '"') return pastQuoted(text, i);
  if (text[i] === "'") {
    const literal = CHAR_LITERAL.exec(text.slice(i, i + 14));
    return literal === null ? i + 1 : i + literal[0].length;
  }
  return i;
}

function pastBlockComment(text: string, i: number): number {
  let depth = 0;
  let at = i;
  while (at < text.length) {
    if (text.startsWith('/*', at)) {
      depth++;
      at += 2;
    } else if (text.startsWith('*/', at)) {
      depth--;
      at += 2;
      if (depth === 0) return at;
    } else at++;
  }
  return text.length;
}

function pastQuoted(text: string, i: number): number {
  let at = i + 1;
  while (at < text.length) {
    if (text[at] === '\\') at += 2;
    else if (text[at] === '"') return at + 1;
    else at++;
  }
  return text.length;
}

/** What a full-context diff of one `.rs` file changed: its test items, its code, or both. */
export interface RustChange {
  readonly tests: boolean;
  readonly code: boolean;
  /** With both: the file as on the base with this branch's test items (its tests on the base's code). */
  readonly testsOnBaseCode?: string;
}

/**
 * Each block of changed lines (between unchanged ones) is a test change when its removed
 * lines lie in the old text's test items and its added lines in the new text's, else a
 * code change. With both kinds, the blocks of tests are taken from the branch and the
 * rest from the base; a block of both keeps the base's lines outside the items and the
 * branch's inside.
 */
export function rustChange(fullContextDiff: string): RustChange {
  const blocks: { old: { line: number; text: string }[]; now: { line: number; text: string }[] }[] = [];
  const old: string[] = [];
  const now: string[] = [];
  const kept: (string | number)[] = []; // an unchanged line, or the index of a block
  let inHunk = false;
  for (const line of fullContextDiff.split('\n')) {
    if (line.startsWith('@@')) inHunk = true;
    else if (!inHunk || line.startsWith('\\')) continue;
    else if (line.startsWith('-') || line.startsWith('+')) {
      if (typeof kept[kept.length - 1] !== 'number') kept.push(blocks.push({ old: [], now: [] }) - 1);
      const block = blocks[blocks.length - 1]!;
      if (line.startsWith('-')) block.old.push({ line: old.push(line.slice(1)), text: line.slice(1) });
      else block.now.push({ line: now.push(line.slice(1)), text: line.slice(1) });
    } else if (line.startsWith(' ')) {
      old.push(line.slice(1));
      now.push(line.slice(1));
      kept.push(line.slice(1));
    }
  }
  const oldItems = rustTestItems(old.join('\n'));
  const newItems = rustTestItems(now.join('\n'));
  const inside = (ranges: readonly LineRange[], line: number) => ranges.some((r) => r.from <= line && line <= r.to);
  const kinds = blocks.map((b) => ({
    tests: b.old.some((l) => inside(oldItems, l.line)) || b.now.some((l) => inside(newItems, l.line)),
    code: b.old.some((l) => !inside(oldItems, l.line)) || b.now.some((l) => !inside(newItems, l.line)),
  }));
  const tests = kinds.some((k) => k.tests);
  const code = kinds.some((k) => k.code);
  if (!tests || !code) return { tests, code };
  const lines = kept.flatMap((entry) => {
    if (typeof entry === 'string') return [entry];
    const block = blocks[entry]!;
    return [
      ...block.old.filter((l) => !inside(oldItems, l.line)).map((l) => l.text),
      ...block.now.filter((l) => inside(newItems, l.line)).map((l) => l.text),
    ];
  });
  return { tests, code, testsOnBaseCode: `${lines.join('\n')}\n` };
}

/** Whether every changed line of a full-context diff of one `.rs` file lies inside a test item. */
export function onlyRustTestItemsChanged(fullContextDiff: string): boolean {
  const change = rustChange(fullContextDiff);
  return change.tests && !change.code;
}
