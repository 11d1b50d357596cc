/**
 * Whether an issue's text (title and body) names a failing test: any of its names, or
 * its file's path or base name. PURE. The file also says where a test's file is and
 * when two spellings of a path are one file (the branch-touched rule uses both).
 *
 * An issue rarely writes a runner's full id (`tests/test_six.py::TestC::test_b[1]`,
 * `crate::tests::adds`, `math › sum › adds`): it writes the part a person reads. So a
 * test answers to each of:
 *
 *   the full id                              tests/test_six.py::test_b[1]
 *   its last `::` segment                    test_b[1]
 *   that segment's base before `[`           test_b          (a parametrized id)
 *   the full id without its parameters       tests/test_six.py::test_b
 *   the last `.`, `/` or `#` segment         adds            (Rust, Go subtests, Java's
 *                                                            `Class#method(args)`: method)
 *   a `describe > it` title's last part      adds            (jest `›`, vitest `>`)
 *
 * Derived names shorter than three characters are dropped (`it`, `t1` would name half
 * the English language). A `.py`/`.js`-style last segment is a file, not a path part.
 *
 * A name matches as a whole word: not inside a longer identifier (`test_b` is not in
 * `test_bar`, `my_test_b` or `test_b.py`), but after a path or module separator
 * (`test_six.py::test_b`, `CalcTest.testAdd`) and before punctuation or a parameter
 * (`test_b.`, `test_b[1]`), except that a parametrized test's bare name is not named by
 * another parametrization (`test_b[2]` does not name the failing `test_b[1]`; a bare
 * `test_b` names every one). Identifiers match case-sensitively; a title with spaces
 * (`returns the sum`) matches in any case. A file name matches the same way, so
 * `test_six.py` is not named by `test_six.pyc` or `my-test_six.py`.
 */
import type { FailedTest } from '../../../definition/ecosystems/test-runners/failed-test.js';

export interface IssueMention {
  /** The name or file the issue wrote. */
  readonly text: string;
  readonly kind: 'test' | 'file';
}

export function namedByIssue(issueText: string, test: FailedTest): IssueMention | undefined {
  // A parametrized test's bare name does not answer to another parametrization of it:
  // `test_b[2]` in the issue names `test_b[2]`, not the failing `test_b[1]`.
  const parametrized = test.name.includes('[');
  const name = testNames(test.name).find((n) =>
    mentions(issueText, n, '', parametrized && !n.includes('[') ? '[' : ''),
  );
  if (name !== undefined) return { text: name, kind: 'test' };
  const file = testFile(test);
  const fileName = file === undefined ? undefined : fileNames(file).find((n) => mentions(issueText, n, '-'));
  return fileName === undefined ? undefined : { text: fileName, kind: 'file' };
}

/** Characters that continue an identifier: a match may not touch one on either side. */
const WORD = 'A-Za-z0-9_$';

/**
 * `name` in `text` as a whole word; `alsoBefore` and `alsoAfter` are more characters that
 * may not precede or follow it.
 */
export function mentions(text: string, name: string, alsoBefore = '', alsoAfter = ''): boolean {
  if (name === '') return false;
  const before = `(?<![${WORD}${escapeClass(alsoBefore)}])`;
  const after = `(?![${WORD}${escapeClass(alsoAfter)}]|\\.[${WORD}])`;
  const flags = /\s/.test(name) ? 'iu' : 'u';
  return new RegExp(`${before}${escapeRegExp(name)}${after}`, flags).test(text);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function escapeClass(s: string): string {
  return s.replace(/[\]\\^-]/g, '\\$&');
}

const MIN_DERIVED = 3;
/** A source file's name, not a dotted path: `test_six.py`, `sum.test.js`, `calc_test.go`. */
const SOURCE_FILE = /\.(py|pyi|js|mjs|cjs|ts|mts|cts|tsx|jsx|go|rs|java|kt|rb|php|cs|c|cc|cpp|h|ex|exs|swift)$/;
const TITLE_SEPARATOR = /\s+[>›]\s+/;

export function testNames(name: string): string[] {
  const full = name.trim();
  const derived: string[] = [];
  const segments = full.split('::');
  const last = segments[segments.length - 1] ?? full;
  derived.push(last);
  const base = withoutParams(last);
  derived.push(base);
  if (base !== last) derived.push([...segments.slice(0, -1), base].join('::'));
  const parts = base.split(TITLE_SEPARATOR);
  if (parts.length > 1) derived.push(parts[parts.length - 1] ?? base);
  else if (!/\s/.test(base) && !SOURCE_FILE.test(base)) derived.push(memberName(base));
  const kept = derived.map((n) => n.trim()).filter((n) => n.length >= MIN_DERIVED);
  return [...new Set([full, ...kept])].filter((n) => n !== '');
}

/**
 * The last `.`, `/` or `#` segment, without a Java signature: `crate::tests::adds` →
 * `adds`, `org.json.CookieTest#escapeString` → `escapeString` (so `CookieTest.escapeString`
 * in prose names it), `demo.ParamTest#positive(int)` → `positive`.
 */
function memberName(base: string): string {
  const last = base.split(/[./#]/).pop() ?? base;
  return last.replace(/\(.*\)$/, '');
}

/** `test_b[1-2]` → `test_b`; a name that is only brackets stays as it is. */
function withoutParams(segment: string): string {
  const open = segment.indexOf('[');
  return open > 0 && segment.endsWith(']') ? segment.slice(0, open) : segment;
}

/**
 * The test's file as the runner reported it, else the part of a pytest-style id before
 * the first `::` when it is a source file; `file://` and backslashes normalised.
 */
export function testFile(test: FailedTest): string | undefined {
  const head = test.name.split('::')[0] ?? '';
  const file = test.file ?? (test.name.includes('::') && SOURCE_FILE.test(head) ? head : undefined);
  if (file === undefined) return undefined;
  return file
    .replace(/^file:\/\//, '')
    .replace(/\\/g, '/')
    .replace(/^\.\//, '');
}

/** The names of a test's file worth looking for in prose: its path when relative, its base name. */
export function fileNames(file: string): string[] {
  const baseName = file.split('/').pop() ?? file;
  return [...new Set(file.startsWith('/') ? [baseName] : [file, baseName])].filter((n) => n !== '');
}

/**
 * One file, however each side spells it: a repository-relative path, a path relative to
 * a subdirectory the runner ran in, an absolute path in the worktree, or a base name.
 */
export function sameFile(reported: string, repoPath: string): boolean {
  const a = reported.replace(/^\.\//, '');
  const b = repoPath.replace(/^\.\//, '');
  return a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`);
}
