/**
 * Rust tests are functions under a `#[test]` attribute (`#[tokio::test]`, `#[rstest]`,
 * `#[test_case(…)]`…), named anything: `fn adds_two()` declares a test no name rule can
 * see, and one deleted from a `#[cfg(test)] mod tests` in `src/lib.rs` leaves `cargo test`
 * green with one test fewer. From a diff's lines alone (-U0), a test is the attribute and
 * the `fn` on the lines right after it (other attributes, comments and blank lines
 * between); an attribute removed while its function stays makes that function no test.
 * PURE.
 */
import type { DiffLine, FileDiff } from './parse-unified-diff.js';

/** A test attribute among a diff's lines: its line, and its function's name when that line changed too. */
export interface RustTest {
  readonly line: number;
  readonly hunk: number;
  readonly name?: string;
}

const TEST_ATTRIBUTE = /^\s*#\[\s*(?:\w+::)*(?:test|rstest|test_case|quickcheck)\b[^\]]*\]/;
const FN = /^(?:pub(?:\([^)]*\))?\s+)?(?:(?:async|const|unsafe|extern(?:\s+"\w+")?)\s+)*fn\s+(\w+)/;

/** The test attributes among `lines` (all added or all removed, in order). */
export function rustTests(lines: readonly DiffLine[]): RustTest[] {
  const tests: RustTest[] = [];
  lines.forEach((attribute, i) => {
    if (!TEST_ATTRIBUTE.test(attribute.text)) return;
    let name: string | undefined;
    for (let j = i + 1; j < lines.length && lines[j]!.line === attribute.line + (j - i); j++) {
      const text = lines[j]!.text.trim();
      name = FN.exec(text)?.[1];
      if (name !== undefined || !(text === '' || text.startsWith('#[') || text.startsWith('//'))) break;
    }
    tests.push({ line: attribute.line, hunk: attribute.hunk, ...(name === undefined ? {} : { name }) });
  });
  return tests;
}

/**
 * The tests a `.rs` file's diff removed: a named one declared nowhere in the added lines
 * (a test moved or rewritten is declared again), or a bare attribute not replaced by
 * another one in its hunk (`#[test]` to `#[tokio::test]` is no removal).
 */
export function removedRustTests(f: FileDiff): RustTest[] {
  const added = rustTests(f.added);
  const addedNames = new Set(added.map((t) => t.name).filter((n) => n !== undefined));
  const bareAdded = new Map<number, number>();
  for (const t of added) if (t.name === undefined) bareAdded.set(t.hunk, (bareAdded.get(t.hunk) ?? 0) + 1);
  return rustTests(f.removed).filter((t) => {
    if (t.name !== undefined) return !addedNames.has(t.name);
    const left = bareAdded.get(t.hunk) ?? 0;
    if (left > 0) bareAdded.set(t.hunk, left - 1);
    return left === 0;
  });
}
