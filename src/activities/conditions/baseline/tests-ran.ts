/**
 * The tests must still run: a test command that passes now (or fails only where the base
 * failed too) is held against what the same command ran on the base commit. PURE.
 *
 * Without this, a branch that stops the tests from running passes the gate: the exit code
 * is 0 and no failure is named, so the tests red on the base read as "fixed". A
 * `<skipTests>` in a pom or a narrowed test script is not a test file, so the integrity
 * check does not see it; the count does. Blocks when the base ran tests and now
 *   - nothing says any test ran (no report, no runner summary), or
 *   - fewer tests ran than there.
 * With no count for the base (a runner we do not count, or a base measured before counts
 * were kept), nothing blocks here and a "fixed" claim says what it rests on.
 *
 * The tests red on the base are told as fixed only when the run names them among its
 * passing tests (passed-tests.ts); with no passing names, when the counts hold. Never one
 * the run names failing (a run accepted with failures already on the base).
 */
import type { JsonValue } from '../../../contracts/json.js';
import { nameList } from '../../../contracts/name-list.js';
import type { TestsSeen } from '../test-reports/tests-seen.js';
import type { Baseline } from './classify-failures.js';

export type TestsRanVerdict =
  | {
      readonly blocks: true;
      readonly line: string;
      readonly params: Record<string, JsonValue>;
      /** The failure pattern (default: tests-not-run). */
      readonly pattern?: string;
    }
  | {
      readonly blocks: false;
      readonly fixedLine?: string;
      readonly params: Record<string, JsonValue>;
      /** The tests red on the base told as fixed now. */
      readonly fixed?: readonly string[];
    };

export function judgeTestsRan(base: Baseline, now: TestsSeen, failingNow: readonly string[] = []): TestsRanVerdict {
  const at = base.commit.slice(0, 12);
  const onBase = base.testsRun;
  const ranNow = now.count ?? now.passed?.length;
  const counts = {
    baseCommit: base.commit,
    ...(onBase === undefined ? {} : { testsRunOnBase: onBase }),
    ...(ranNow === undefined ? {} : { testsRun: ranNow }),
  };
  if (onBase !== undefined && onBase > 0) {
    if (ranNow === undefined)
      return {
        blocks: true,
        line: `no test was seen to run: nothing in the output or the test reports says a test ran, where ${onBase} ran on the base commit ${at} (skipped by configuration, excluded, or no longer reached)`,
        params: counts,
      };
    if (ranNow < onBase)
      return {
        blocks: true,
        line: `fewer tests ran than on the base commit ${at}: ${ranNow} now, ${onBase} there (tests skipped, excluded or deleted)`,
        params: counts,
      };
  }
  const failedOnBase = base.failedTests;
  if (failedOnBase.length === 0) return { blocks: false, params: counts };
  const passed = now.passed === undefined ? undefined : new Set(now.passed);
  const unseen = passed === undefined ? [] : failedOnBase.filter((name) => !passed.has(name));
  const countsHold = onBase !== undefined && ranNow !== undefined;
  // Named passing beats counting; counting beats the exit status alone.
  const failing = new Set(failingNow);
  const fixed = (
    unseen.length === 0 || countsHold ? failedOnBase : failedOnBase.filter((name) => passed?.has(name))
  ).filter((name) => !failing.has(name));
  const basis = basisOf({
    named: passed !== undefined,
    unseen,
    all: failedOnBase.length,
    counted: countsHold ? { ranNow, onBase } : undefined,
  });
  const notSeen =
    unseen.length > 0 && !countsHold ? `; failing on the base and not seen passing now: ${nameList(unseen)}` : '';
  const line = fixed.length > 0 ? `fixed since base ${at}: ${nameList(fixed)}${basis}${notSeen}` : notSeen.slice(2);
  return { blocks: false, fixedLine: line, fixed, params: { ...counts, fixed: fixed.map((name) => ({ name })) } };
}

/** What a "fixed" claim rests on, said after the names; empty when every fixed test was seen passing. */
function basisOf(fix: {
  readonly named: boolean;
  readonly unseen: readonly string[];
  readonly all: number;
  readonly counted?: { readonly ranNow?: number; readonly onBase?: number };
}): string {
  const byCount =
    // The runner's own count, in its unit (tests; packages for a plain `go test`).
    fix.counted &&
    `by the exit status and the runner's count: ${fix.counted.ranNow} now, ${fix.counted.onBase} on the base`;
  if (fix.unseen.length === 0 && fix.named) return '';
  // Not seen and not counted: those are told apart as "not seen passing", not claimed.
  if (byCount === undefined)
    return fix.named ? '' : ' (by the exit status alone: the output names no passing test and no count)';
  if (fix.unseen.length === 0 || fix.unseen.length === fix.all) return ` (${byCount})`;
  return ` (${byCount}; not named among the passing tests: ${nameList(fix.unseen)})`;
}
