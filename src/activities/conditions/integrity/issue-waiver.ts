/**
 * When the issue itself asks for the change, a finding is not weakening: "delete the
 * obsolete tests in legacy.test.ts", "skip test_network on CI", "update the snapshot".
 * PURE, and deliberately simple so a user can predict it:
 *
 *   a finding is waived when the issue text names its file (the path, or the file's
 *   base name) AND uses a verb asking for that kind of change.
 *
 * A finding in a file the issue does not name is never waived. The issue text is
 * untrusted, but this only relaxes a check the issue's author could relax anyway.
 */
import { FindingKind, type IntegrityFinding } from './detect-test-weakening.js';

const VERBS: Readonly<Record<FindingKind, RegExp>> = {
  [FindingKind.TestDeleted]: /\b(remove|delete|drop|retire)\w*/i,
  [FindingKind.TestSkipped]: /\b(skip|disable|ignore|quarantine|mark\w*)\w*/i,
  [FindingKind.AssertionRemoved]: /\b(remove|delete|drop|relax|loosen|change|rewrite|update)\w*/i,
  [FindingKind.SnapshotLoosened]: /\b(update|regenerate|refresh|remove|delete)\w*/i,
  [FindingKind.ConfigEdited]: /\b(change|edit|update|modify|add|remove|fix|configure)\w*/i,
  [FindingKind.CoverageLowered]: /\b(lower|reduce|decrease|relax|remove)\w*/i,
};

/** Whether the issue text names the file: its path or its base name, in any case. */
export function issueNamesFile(issueText: string, file: string): boolean {
  const text = issueText.toLowerCase();
  const path = file.toLowerCase();
  const base = path.split('/').pop() ?? path;
  return text.includes(path) || text.includes(base);
}

export function issueAsksFor(issueText: string, finding: IntegrityFinding): boolean {
  return issueNamesFile(issueText, finding.file) && VERBS[finding.kind].test(issueText);
}

export function splitWaived(
  findings: readonly IntegrityFinding[],
  issueText: string | undefined,
): { readonly blocking: IntegrityFinding[]; readonly waived: IntegrityFinding[] } {
  const blocking: IntegrityFinding[] = [];
  const waived: IntegrityFinding[] = [];
  for (const f of findings) (issueText !== undefined && issueAsksFor(issueText, f) ? waived : blocking).push(f);
  return { blocking, waived };
}
