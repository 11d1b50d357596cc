/**
 * Separates the tests failing now into regressions (passing on the base commit) and
 * pre-existing failures (already failing there), and decides whether the condition
 * blocks. PURE.
 *
 *   ignore         (default) only regressions block: a run is not blamed for a suite
 *                  that was red before it started
 *   require-fixed  pre-existing failures block too (the retry prompt still says which
 *                  are which)
 *
 * A pre-existing failure whose name the issue text contains blocks in either mode:
 * the issue asks for exactly that test to be fixed.
 *
 * When the failing tests cannot be named the failures cannot be told apart, and the
 * condition blocks as it would without a baseline.
 */
import { BaselineMode } from '../../../contracts/definition.js';
import type { FailedTest } from '../parse-test-output.js';

export interface Baseline {
  readonly commit: string;
  readonly command: string;
  readonly exitCode: number | null;
  /** Names of the tests failing on the base commit. */
  readonly failedTests: readonly string[];
}

export interface Classified {
  readonly regressions: readonly FailedTest[];
  readonly preExisting: readonly FailedTest[];
  /** Pre-existing failures the issue names: the issue is about them, so they block. */
  readonly namedByIssue: readonly FailedTest[];
  readonly blocks: boolean;
  /** Why, in one line, for the summary. */
  readonly reason: string;
}

export function classifyFailures(
  now: readonly FailedTest[],
  baseline: Baseline,
  mode: BaselineMode,
  issueText?: string,
): Classified {
  const before = new Set(baseline.failedTests);
  const preExisting = now.filter((t) => before.has(t.name));
  const regressions = now.filter((t) => !before.has(t.name));
  const named = issueText === undefined ? [] : preExisting.filter((t) => issueText.includes(t.name));
  const base = baseline.commit.slice(0, 12);
  const result = (blocks: boolean, reason: string): Classified => ({
    regressions,
    preExisting,
    namedByIssue: named,
    blocks,
    reason,
  });
  if (now.length === 0) return result(true, 'the failing tests could not be named');
  if (regressions.length > 0) {
    const also = preExisting.length ? `, ${preExisting.length} failing on base too` : '';
    return result(true, `${regressions.length} regression(s) (not failing on base ${base})${also}`);
  }
  if (named.length > 0) {
    return result(true, `failing on base ${base} but named by the issue: ${named.map((t) => t.name).join(', ')}`);
  }
  return mode === BaselineMode.RequireFixed
    ? result(true, `${preExisting.length} failure(s) already on base ${base}; baseline: require-fixed`)
    : result(false, `only failures already on base ${base}: ${preExisting.map((t) => t.name).join(', ')}`);
}
