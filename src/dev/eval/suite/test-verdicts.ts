/**
 * Whether a test, by name, passed in a run of the test command, and the FAIL_TO_PASS /
 * PASS_TO_PASS split of two runs. PURE. Names come from the failure parsers
 * (conditions/test-reports), the passing-test parsers (passed-tests.ts) and, for runners
 * that print no passing names (plain `go test`, jest and vitest without --verbose), from
 * the test declarations of the task's test patch (`func TestX`, `def test_x`, `it('…')`).
 *
 * A test passes in a run when the run ended by itself, no failure names it, and either
 * the runner named it as passing, or (a runner that names no passing test) the run named
 * every failure it had: exit 0, or failures named and nothing failed to load. Anything
 * less is not a pass: a test that did not run, or whose file did not load, has not passed.
 */
import type { FailedTest } from '../../../definition/ecosystems/test-runners/failed-test.js';
import { testNames } from '../../../activities/conditions/baseline/named-by-issue.js';
import { testDeclaration } from '../../../activities/conditions/integrity/weakening-rules.js';

export interface SuiteRun {
  /** The command exited by itself (not timed out, killed or unstartable). */
  readonly ran: boolean;
  readonly exitCode: number | null;
  readonly failures: readonly FailedTest[];
  /** Tests the runner named as passing; undefined when it names none. */
  readonly passed?: readonly string[];
}

/** One test under two spellings: the same id, one a derived name of the other, or a title's last part. */
export function sameTest(a: string, b: string): boolean {
  if (a === b) return true;
  if (testNames(a).includes(b) || testNames(b).includes(a)) return true;
  const titled = (full: string, leaf: string): boolean =>
    /\s/.test(leaf) && [' ', ' › ', ' > '].some((sep) => full.endsWith(`${sep}${leaf}`));
  return titled(a, b) || titled(b, a);
}

const named = (run: SuiteRun, name: string): boolean =>
  run.failures.some((f) => f.scope !== 'load' && sameTest(f.name, name));

export function passesIn(name: string, run: SuiteRun): boolean {
  if (!run.ran || named(run, name)) return false;
  if (run.passed !== undefined && run.passed.some((p) => sameTest(p, name))) return true;
  if (run.passed !== undefined || run.failures.some((f) => f.scope === 'load')) return false;
  return run.exitCode === 0 || run.failures.length > 0;
}

/** The tests a unified diff of test files adds or touches: declaration lines added, and hunk headers' contexts. */
export function declaredTests(patch: string): string[] {
  const out = new Set<string>();
  for (const line of patch.split('\n')) {
    const text = line.startsWith('+') && !line.startsWith('+++') ? line.slice(1) : /^@@ .*? @@ ?(.*)$/.exec(line)?.[1];
    const name = text === undefined ? undefined : testDeclaration(text);
    if (name !== undefined) out.add(name);
  }
  return [...out];
}

export interface TestSplit {
  readonly failToPass: readonly string[];
  readonly passToPass: readonly string[];
}

/**
 * FAIL_TO_PASS: failing before (named, declared by the test patch and not passing, or in
 * a run where a file or target did not load and not among its passes) and passing after.
 * PASS_TO_PASS: passing both ways. Candidates are the runner's own names where it gives
 * them; the declarations otherwise.
 */
export function splitTests(before: SuiteRun, after: SuiteRun, declared: readonly string[]): TestSplit {
  const failedBefore = before.failures.filter((f) => f.scope !== 'load').map((f) => f.name);
  const exact = [...(after.passed ?? []), ...failedBefore];
  const fromDeclarations = after.passed === undefined ? declared.filter((d) => !exact.some((e) => sameTest(e, d))) : [];
  const candidates = [...new Set([...exact, ...fromDeclarations])];
  const isDeclared = (n: string): boolean => declared.some((d) => sameTest(n, d));
  // A file or test target that did not load before hides its tests' names (cargo stops at
  // a test target that does not compile; a macro declares tests no pattern reads): a test
  // the before run did not pass, and the after run names as passing, failed with it.
  const unloaded = (n: string): boolean =>
    before.ran && before.failures.some((f) => f.scope === 'load') && after.passed?.includes(n) === true;
  const failToPass = candidates.filter(
    (n) => !passesIn(n, before) && passesIn(n, after) && (named(before, n) || isDeclared(n) || unloaded(n)),
  );
  const passToPass = candidates.filter((n) => passesIn(n, before) && passesIn(n, after));
  return { failToPass, passToPass };
}

/** The names among `names` that did not pass in the run (a hidden check's verdict). */
export function notPassing(names: readonly string[], run: SuiteRun): string[] {
  return names.filter((n) => !passesIn(n, run));
}
