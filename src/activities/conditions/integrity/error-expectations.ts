/**
 * A test's expectation that the code fails (throws, rejects, raises, panics, returns an
 * error), judged on a test file's changed lines. PURE. Two findings:
 *
 *   error-expectation-removed  an assertion that the code fails removed and not put back,
 *                              or turned into its opposite (`.toThrow()` to `.not.toThrow()`,
 *                              `require.Error` to `require.NoError`); in Go also the check
 *                              written by hand, `if err == nil { t.Fatal(…) }`, inverted to
 *                              `if err != nil`
 *   error-now-expected         the reverse, in Go: a check that the code succeeds
 *                              (`if err != nil { t.Fatal(err) }`, `require.NoError`)
 *                              inverted into one that it fails, so the test passes on code
 *                              that now fails where it must not
 *
 * Go writes the check by hand and inverts it on one line: the `t.Fatal` under it stays,
 * and the diff has no context (-U0). So a removed line and an added line of the same hunk
 * that differ only by `==`/`!=` against nil on an error (`Error`/`NoError` for testify)
 * are an inversion. An `if err != nil` added with no such removed line is new code, and
 * no finding.
 */
import type { FindingKind, IntegrityFinding } from './detect-test-weakening.js';
import type { DiffLine, FileDiff } from './parse-unified-diff.js';
import { expectsError, isAssertion } from './weakening-rules.js';

/** The error expectations a test file's change dropped or inverted. */
export function errorExpectationFindings(f: FileDiff): IntegrityFinding[] {
  const inverted = f.path.endsWith('.go') ? invertedGoChecks(f) : [];
  const lines = new Set(inverted.map((i) => i.line));
  return [...droppedErrorExpectations(f).filter((d) => !lines.has(d.line)), ...inverted];
}

/**
 * Assertions that the code fails, removed and not put back anywhere in the file: an
 * inverted one (`.not.toThrow()`) no longer counts, so a rewrite in place is found too.
 */
function droppedErrorExpectations(f: FileDiff): IntegrityFinding[] {
  let kept = f.added.filter((a) => expectsError(a.text)).length;
  const findings: IntegrityFinding[] = [];
  for (const r of f.removed) {
    if (!expectsError(r.text)) continue;
    if (kept-- > 0) continue;
    const now = f.added.find((a) => a.hunk === r.hunk && isAssertion(a.text));
    findings.push({
      kind: 'error-expectation-removed',
      file: f.path,
      line: r.line,
      finding: `the error it expected is no longer asserted (was line ${r.line}): \`${r.text.trim()}\`${
        now === undefined ? ' removed' : ` became \`${now.text.trim()}\``
      }`,
    });
  }
  return findings;
}

const ERR = String.raw`(?:err\w*|\w+Err\w*)`;
/** `err == nil`, `nil != err`, `gotErr != nil`: an error compared with nil. */
const NIL_CHECK = new RegExp(String.raw`\b${ERR}\s*(==|!=)\s*nil\b|\bnil\s*(==|!=)\s*${ERR}\b`, 'g');
/** testify's `assert.Error(`, `require.NoErrorf(`. */
const TESTIFY = /\b(assert|require)\.(No)?Error(f?)\s*\(/g;

/** Go error checks inverted in place: a removed line whose every check, flipped, is an added line of its hunk. */
function invertedGoChecks(f: FileDiff): IntegrityFinding[] {
  const used = new Set<DiffLine>();
  const findings: IntegrityFinding[] = [];
  for (const r of f.removed) {
    const code = r.text.trim();
    if (code.startsWith('//')) continue;
    const expectedError = expectsAnError(code);
    if (expectedError === undefined) continue;
    const flipped = squash(flip(code));
    const now = f.added.find((a) => a.hunk === r.hunk && !used.has(a) && squash(a.text) === flipped);
    if (now === undefined) continue;
    used.add(now);
    const kind: FindingKind = expectedError ? 'error-expectation-removed' : 'error-now-expected';
    const what = expectedError
      ? 'the error it expected is no longer asserted'
      : 'the check that it succeeds now expects an error';
    findings.push({
      kind,
      file: f.path,
      line: r.line,
      finding: `${what} (was line ${r.line}): \`${code}\` became \`${now.text.trim()}\``,
    });
  }
  return findings;
}

/** Whether the line's first Go error check expects an error (`err == nil` fails the test, `assert.Error`); undefined when it has none. */
function expectsAnError(code: string): boolean | undefined {
  const nil = new RegExp(NIL_CHECK.source).exec(code);
  const testify = new RegExp(TESTIFY.source).exec(code);
  if (nil !== null && (testify === null || nil.index < testify.index)) return (nil[1] ?? nil[2]) === '==';
  return testify === null ? undefined : testify[2] === undefined;
}

/** Every error check on the line turned into its opposite. */
function flip(code: string): string {
  return code
    .replace(NIL_CHECK, (m) => (m.includes('==') ? m.replace('==', '!=') : m.replace('!=', '==')))
    .replace(TESTIFY, (_m, pkg: string, no: string | undefined, f: string) => `${pkg}.${no ? '' : 'No'}Error${f}(`);
}

function squash(text: string): string {
  return text.replace(/\s+/g, '');
}
