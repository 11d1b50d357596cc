/**
 * The test-integrity guard's judgement: from the run's diff against its base, the
 * places where tests were made easier to pass instead of the code made right. PURE.
 *
 *   test-deleted        a test file, or a test case in one, removed
 *   test-skipped        a skip/only marker added (.skip, xit, @pytest.mark.skip, t.Skip, #[ignore]…)
 *   assertion-removed   assertion lines removed from a test file and not put back
 *   error-expectation-removed  an assertion that the code fails (throws, raises, panics)
 *                       removed or turned into its opposite (`.toThrow()` to `.not.toThrow()`,
 *                       Go's `if err == nil` to `if err != nil`: error-expectations.ts)
 *   error-now-expected  Go: a check that the code succeeds inverted into one that it fails
 *   snapshot-loosened   a snapshot file deleted or rewritten (`-u`)
 *   config-edited       CI or test-runner configuration changed
 *   coverage-lowered    a coverage threshold lowered or removed
 *
 * A Rust source file that is no test file is judged by the lines inside its test items
 * (`#[cfg(test)] mod tests`, `#[test] fn`) as a test file is, when the caller gives their
 * line ranges (`inSourceTests`); a test function removed there is a deleted test.
 *
 * Line numbers are the new file's for added lines and the old file's for removed ones
 * (the finding text says "was line N" then).
 */
import { errorExpectationFindings } from './error-expectations.js';
import { FileChange, type DiffLine, type FileDiff } from './parse-unified-diff.js';
import { removedRustTests } from './rust-test-fns.js';
import {
  coverageThreshold,
  isAssertion,
  isTestConfigChange,
  testRowName,
  isTestCode,
  mayHoldTests,
  SNAPSHOT_PATH,
  skipMarker,
  testDeclaration,
} from './weakening-rules.js';

export const FindingKind = {
  TestDeleted: 'test-deleted',
  TestSkipped: 'test-skipped',
  AssertionRemoved: 'assertion-removed',
  ErrorExpectationRemoved: 'error-expectation-removed',
  ErrorNowExpected: 'error-now-expected',
  SnapshotLoosened: 'snapshot-loosened',
  ConfigEdited: 'config-edited',
  CoverageLowered: 'coverage-lowered',
} as const;
export type FindingKind = (typeof FindingKind)[keyof typeof FindingKind];

export interface IntegrityFinding {
  readonly kind: FindingKind;
  readonly file: string;
  readonly line: number;
  /** One sentence for the retry prompt. */
  readonly finding: string;
}

/** 1-based inclusive line ranges of a Rust source file's test items, in the base's text and in the branch's. */
export interface InSourceTests {
  readonly old: readonly { readonly from: number; readonly to: number }[];
  readonly now: readonly { readonly from: number; readonly to: number }[];
}

export function detectTestWeakening(
  files: readonly FileDiff[],
  inSourceTests: ReadonlyMap<string, InSourceTests> = new Map(),
): IntegrityFinding[] {
  return files.flatMap((f) => [
    ...snapshotFindings(f),
    ...configFindings(f),
    ...testFindings(f),
    ...inSourceTestFindings(f, inSourceTests.get(f.path)),
  ]);
}

/** The test items' lines of a Rust source file, judged as a test file's changes are. */
function inSourceTestFindings(f: FileDiff, items: InSourceTests | undefined): IntegrityFinding[] {
  if (items === undefined || isTestCode(f.path) || !f.path.endsWith('.rs')) return [];
  const inside = (ranges: InSourceTests['old'], l: DiffLine) => ranges.some((r) => r.from <= l.line && l.line <= r.to);
  const removed = f.removed.filter((l) => inside(items.old, l));
  const added = f.added.filter((l) => inside(items.now, l));
  return testCaseFindings({ ...f, change: FileChange.Modified, removed, added });
}

function snapshotFindings(f: FileDiff): IntegrityFinding[] {
  if (!SNAPSHOT_PATH.test(f.path) || f.change === FileChange.Added) return [];
  const deleted = f.change === FileChange.Deleted;
  const first = f.removed[0]?.line ?? f.added[0]?.line ?? 1;
  return [
    {
      kind: FindingKind.SnapshotLoosened,
      file: f.path,
      line: first,
      finding: deleted
        ? 'snapshot file deleted'
        : 'snapshot rewritten (as by `-u`): the expected output was changed to match the code',
    },
  ];
}

function configFindings(f: FileDiff): IntegrityFinding[] {
  const findings: IntegrityFinding[] = [];
  const thresholdsBefore = new Map<string, { value: number; line: number }>();
  for (const r of f.removed) {
    const t = coverageThreshold(f.path, r.text);
    if (t) thresholdsBefore.set(t.key, { value: t.value, line: r.line });
  }
  const thresholdsAfter = new Map<string, number>();
  for (const a of f.added) {
    const t = coverageThreshold(f.path, a.text);
    if (!t) continue;
    thresholdsAfter.set(t.key, t.value);
    const before = thresholdsBefore.get(t.key);
    if (before !== undefined && t.value < before.value) {
      findings.push({
        kind: FindingKind.CoverageLowered,
        file: f.path,
        line: a.line,
        finding: `coverage threshold ${t.key} lowered from ${before.value} to ${t.value}`,
      });
    }
  }
  for (const [key, before] of thresholdsBefore) {
    if (!thresholdsAfter.has(key)) {
      findings.push({
        kind: FindingKind.CoverageLowered,
        file: f.path,
        line: before.line,
        finding: `coverage threshold ${key} (${before.value}) removed (was line ${before.line})`,
      });
    }
  }
  const edited = [...f.added, ...f.removed].filter((l) => isTestConfigChange(f.path, l.text));
  if (edited.length > 0 || (f.change === FileChange.Deleted && isTestConfigChange(f.path, ''))) {
    findings.push({
      kind: FindingKind.ConfigEdited,
      file: f.path,
      line: edited[0]?.line ?? f.added[0]?.line ?? f.removed[0]?.line ?? 1,
      finding:
        f.change === FileChange.Deleted
          ? 'CI/test configuration file deleted'
          : `CI/test configuration edited: ${edited[0]?.text.trim().slice(0, 120) ?? ''}`,
    });
  }
  return findings;
}

function testFindings(f: FileDiff): IntegrityFinding[] {
  if (!mayHoldTests(f.path) || SNAPSHOT_PATH.test(f.path)) return [];
  if (f.change === FileChange.Deleted) {
    // A deleted fixture under test/ is not a deleted test; a file that declared or asserted something is.
    const heldTests = f.removed.some((r) => testDeclaration(r.text) !== undefined || isAssertion(r.text));
    return isTestCode(f.path) && heldTests
      ? [{ kind: FindingKind.TestDeleted, file: f.path, line: 1, finding: 'test file deleted' }]
      : [];
  }
  const findings: IntegrityFinding[] = [];
  for (const a of f.added) {
    const why = skipMarker(a.text);
    if (why)
      findings.push({
        kind: FindingKind.TestSkipped,
        file: f.path,
        line: a.line,
        finding: `${why}: \`${a.text.trim()}\``,
      });
  }
  if (!isTestCode(f.path)) return findings;
  return [...findings, ...testCaseFindings(f)];
}

/** Tests deleted, assertions removed, errors no longer expected: in a test file or a Rust file's test items. */
function testCaseFindings(f: FileDiff): IntegrityFinding[] {
  const rust = f.path.endsWith('.rs') ? removedRustTests(f) : [];
  const findings: IntegrityFinding[] = rust.map((t) => ({
    kind: FindingKind.TestDeleted,
    file: f.path,
    line: t.line,
    finding: `${t.name === undefined ? 'test attribute' : `test "${t.name}"`} removed (was line ${t.line})`,
  }));
  const reported = new Set(rust.map((t) => t.name));
  const declared = (text: string): string | undefined => testDeclaration(text) ?? testRowName(f.path, text);
  const addedNames = new Set(f.added.map((a) => declared(a.text)).filter((n) => n !== undefined));
  for (const r of f.removed) {
    const name = declared(r.text);
    if (name !== undefined && !addedNames.has(name) && !reported.has(name)) {
      findings.push({
        kind: FindingKind.TestDeleted,
        file: f.path,
        line: r.line,
        finding: `test "${name}" removed (was line ${r.line})`,
      });
    }
  }
  const errors = errorExpectationFindings(f);
  findings.push(...errors, ...removedAssertions(f, new Set(errors.map((e) => e.line))));
  return findings;
}

/**
 * Removed assertions not put back: an assertion re-added anywhere in the file (moved)
 * is fine, and so is one rewritten in place (an added assertion in the same hunk).
 */
function removedAssertions(f: FileDiff, reported: ReadonlySet<number>): IntegrityFinding[] {
  const addedTexts = new Set(f.added.filter((a) => isAssertion(a.text)).map((a) => normalise(a.text)));
  const rewrites = new Map<number, number>();
  for (const a of f.added) if (isAssertion(a.text)) rewrites.set(a.hunk, (rewrites.get(a.hunk) ?? 0) + 1);
  const findings: IntegrityFinding[] = [];
  for (const r of f.removed) {
    if (!isAssertion(r.text) || addedTexts.has(normalise(r.text)) || reported.has(r.line)) continue;
    const left = rewrites.get(r.hunk) ?? 0;
    if (left > 0) {
      rewrites.set(r.hunk, left - 1);
      continue;
    }
    findings.push({
      kind: FindingKind.AssertionRemoved,
      file: f.path,
      line: r.line,
      finding: `assertion removed (was line ${r.line}): \`${r.text.trim()}\``,
    });
  }
  return findings;
}

function normalise(text: string): string {
  return text.replace(/\s+/g, '');
}
