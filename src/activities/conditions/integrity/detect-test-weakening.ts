/**
 * The test-integrity guard's judgement: from the run's diff against its base, the
 * places where tests were made easier to pass instead of the code made right. PURE.
 *
 *   test-deleted        a test file, or a test case in one, removed
 *   test-skipped        a skip/only marker added (.skip, xit, @pytest.mark.skip, t.Skip, #[ignore]…)
 *   assertion-removed   assertion lines removed from a test file and not put back
 *   snapshot-loosened   a snapshot file deleted or rewritten (`-u`)
 *   config-edited       CI or test-runner configuration changed
 *   coverage-lowered    a coverage threshold lowered or removed
 *
 * Line numbers are the new file's for added lines and the old file's for removed ones
 * (the finding text says "was line N" then).
 */
import { FileChange, type FileDiff } from './parse-unified-diff.js';
import {
  coverageThreshold,
  isAssertion,
  isTestConfigChange,
  testRowName,
  isTestFile,
  mayHoldTests,
  SNAPSHOT_PATH,
  skipMarker,
  testDeclaration,
} from './weakening-rules.js';

export const FindingKind = {
  TestDeleted: 'test-deleted',
  TestSkipped: 'test-skipped',
  AssertionRemoved: 'assertion-removed',
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

export function detectTestWeakening(files: readonly FileDiff[]): IntegrityFinding[] {
  return files.flatMap((f) => [...snapshotFindings(f), ...configFindings(f), ...testFindings(f)]);
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
    return isTestFile(f.path) && heldTests
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
  if (!isTestFile(f.path)) return findings;
  const declared = (text: string): string | undefined => testDeclaration(text) ?? testRowName(f.path, text);
  const addedNames = new Set(f.added.map((a) => declared(a.text)).filter((n) => n !== undefined));
  for (const r of f.removed) {
    const name = declared(r.text);
    if (name !== undefined && !addedNames.has(name)) {
      findings.push({
        kind: FindingKind.TestDeleted,
        file: f.path,
        line: r.line,
        finding: `test "${name}" removed (was line ${r.line})`,
      });
    }
  }
  findings.push(...removedAssertions(f));
  return findings;
}

/**
 * Removed assertions not put back: an assertion re-added anywhere in the file (moved)
 * is fine, and so is one rewritten in place (an added assertion in the same hunk).
 */
function removedAssertions(f: FileDiff): IntegrityFinding[] {
  const addedTexts = new Set(f.added.filter((a) => isAssertion(a.text)).map((a) => normalise(a.text)));
  const rewrites = new Map<number, number>();
  for (const a of f.added) if (isAssertion(a.text)) rewrites.set(a.hunk, (rewrites.get(a.hunk) ?? 0) + 1);
  const findings: IntegrityFinding[] = [];
  for (const r of f.removed) {
    if (!isAssertion(r.text) || addedTexts.has(normalise(r.text))) continue;
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
