/**
 * When the issue is about the tests themselves, a finding is not weakening: "the expected
 * value in sum.test.ts is wrong", "delete the obsolete tests", "skip test_network on CI".
 * Such an issue carries the label `agent:tests-only` (TESTS_ONLY_LABEL), set by whoever
 * triages it; then every finding is waived, and listed as waived for the reviewer.
 *
 * Not the issue's words. The waiver was "the issue text names the finding's file and uses
 * a verb asking for that kind of change", and a bug report names the failing test's file
 * as often as not ("test/sum.test.ts fails: please fix and update the test"): naming the
 * file let the agent weaken exactly the test the bug report points at. The same rule as
 * fixed-in-tests-only's (baseline/fixed-in-tests-only.ts), so one label waives both.
 * PURE.
 */
import { TESTS_ONLY_LABEL } from '../../../contracts/tests-not-run.js';
import type { IntegrityFinding } from './detect-test-weakening.js';

/** Whether the issue's labels say it is about the tests themselves. */
export function testsOnlyIssue(issueLabels: readonly string[] | undefined): boolean {
  return issueLabels?.includes(TESTS_ONLY_LABEL) ?? false;
}

export function splitWaived(
  findings: readonly IntegrityFinding[],
  issueLabels: readonly string[] | undefined,
): { readonly blocking: IntegrityFinding[]; readonly waived: IntegrityFinding[] } {
  return testsOnlyIssue(issueLabels)
    ? { blocking: [], waived: [...findings] }
    : { blocking: [...findings], waived: [] };
}
