/**
 * Splits a failing test run against the base commit's failures, and decides whether
 * the condition blocks. PURE. Three groups:
 *
 *   regressions   failing now, passing on the base: always block
 *   preExisting   failing on the base and still failing now: each either blocks, with
 *                 its reason, or is shown to the model by name as not caused by the change
 *   fixed         failing on the base, passing now (by name; reported, never blocking)
 *
 * A pre-existing failure blocks, in every mode, when the issue names it (any of its
 * names or its file: named-by-issue.ts) or when the branch changed its file: the issue
 * is about it, or the branch worked on it. The mode decides the others:
 *
 *   ignore         (default) they do not block: a run is not blamed for a suite that
 *                  was red before it started
 *   require-fixed  they block too
 *
 * A file, package or target that cannot load (scope `load`) is judged by whether it
 * loaded on the base, the preflight's term: one that could not load there either is
 * failing on base (pre-existing, as the preflight's `failing-on-base` reported it); one
 * that loaded there and cannot now is a regression. Loads are matched by name and file
 * (jest names every one "Test suite failed to run"), in `notLoading`, never against the
 * names of failing tests.
 *
 * When the failing tests cannot be named they cannot be told apart, and the condition
 * blocks as it would without a baseline.
 */
import { BaselineMode } from '../../../contracts/definition.js';
import { nameList } from '../../../contracts/name-list.js';
import type { FailedTest } from '../../../definition/ecosystems/test-runners/failed-test.js';
import { namedByIssue, sameFile, testFile } from './named-by-issue.js';

/** How a reason names the tests fixed since the base (its last part, when any were). */
export const FIXED_NOTE = '; fixed since base: ';

export interface Baseline {
  readonly commit: string;
  readonly command: string;
  readonly exitCode: number | null;
  /** Names of the tests failing on the base commit. */
  readonly failedTests: readonly string[];
  /**
   * What could not load on the base commit (files, packages, targets). Absent in an entry
   * measured before loads were kept apart: its loads, if any, are among `failedTests`.
   */
  readonly notLoading?: readonly NotLoading[];
  /** How many tests the command ran there (tests-run.ts), when its output says. */
  readonly testsRun?: number;
}

/** A file, package or target that could not load on the base, as the runner named it. */
export interface NotLoading {
  readonly name: string;
  readonly file?: string;
}

/** The loads among a run's failures, as a baseline keeps them. */
export function notLoadingOf(failures: readonly FailedTest[]): NotLoading[] {
  return failures
    .filter((f) => f.scope === 'load')
    .map((f) => (f.file === undefined ? { name: f.name } : { name: f.name, file: f.file }));
}

/** A test failing on the base and now; `blocks` says why it blocks, absent when it does not. */
export type PreExistingFailure = FailedTest & { readonly blocks?: string };

export interface Classified {
  readonly regressions: readonly FailedTest[];
  readonly preExisting: readonly PreExistingFailure[];
  /** Names of the tests failing on the base that pass now. */
  readonly fixed: readonly string[];
  readonly blocks: boolean;
  /** Why, in one line, for the summary. */
  readonly reason: string;
}

export interface ClassifyContext {
  /** The issue's title and body. */
  readonly issueText?: string;
  /** Files the branch changed against the base commit (touched-files.ts). */
  readonly touchedFiles?: readonly string[];
}

export function classifyFailures(
  now: readonly FailedTest[],
  baseline: Baseline,
  mode: BaselineMode,
  context: ClassifyContext = {},
): Classified {
  const failingNow = new Set(now.map((t) => t.name));
  const onBase = (t: FailedTest) => failedOnBase(t, baseline);
  const regressions = now.filter((t) => !onBase(t));
  const preExisting = now.filter(onBase).map((t): PreExistingFailure => {
    const why = blockReason(t, mode, context);
    return why === undefined ? t : { ...t, blocks: why };
  });
  const fixed = now.length === 0 ? [] : baseline.failedTests.filter((n) => !failingNow.has(n));
  const blocking = preExisting.filter((t) => t.blocks !== undefined);
  const base = baseline.commit.slice(0, 12);
  const fixedNote = fixed.length ? `${FIXED_NOTE}${nameList(fixed)}` : '';
  const result = (blocks: boolean, reason: string): Classified => ({
    regressions,
    preExisting,
    fixed,
    blocks,
    reason: `${reason}${fixedNote}`,
  });
  if (now.length === 0) return result(true, 'the failing tests could not be named');
  if (regressions.length > 0) {
    const also = preExisting.length ? `, ${preExisting.length} failing on base too` : '';
    const held = blocking.length ? ` (${blocking.length} of them blocking)` : '';
    const loads = regressions.filter((t) => t.scope === 'load').map((t) => loadName(t));
    const loaded = loads.length ? `; cannot load now, loaded on base: ${nameList(loads)}` : '';
    return result(true, `${regressions.length} regression(s) (not failing on base ${base})${also}${held}${loaded}`);
  }
  if (mode === BaselineMode.RequireFixed && blocking.every((t) => t.blocks === REQUIRE_FIXED)) {
    return result(true, `${preExisting.length} failure(s) already on base ${base}; baseline: require-fixed`);
  }
  if (blocking.length > 0) {
    const listed = blocking.map((t) => `${t.name} (${t.blocks ?? ''})`).join(', ');
    return result(true, `failing on base ${base} and still blocking: ${listed}`);
  }
  const listed = preExisting.map((t) => (t.scope === 'load' ? `${loadName(t)} (cannot load, as on the base)` : t.name));
  return result(false, `only failures already on base ${base}: ${listed.join(', ')}`);
}

/** Whether a failure now was failing on the base: a test by name, a load by name and file. */
function failedOnBase(t: FailedTest, baseline: Baseline): boolean {
  if (t.scope !== 'load' || baseline.notLoading === undefined) return baseline.failedTests.includes(t.name);
  return baseline.notLoading.some(
    (b) =>
      b.name === t.name && (b.file === undefined) === (t.file === undefined) && sameFile(b.file ?? '', t.file ?? ''),
  );
}

/** A load failure as the reason names it: its file too when the name is not the file. */
function loadName(t: FailedTest): string {
  return t.file === undefined || t.name === t.file ? t.name : `${t.name} (${t.file})`;
}

const REQUIRE_FIXED = 'baseline: require-fixed';

/** Why a pre-existing failure blocks, or undefined when it does not. */
function blockReason(test: FailedTest, mode: BaselineMode, context: ClassifyContext): string | undefined {
  const mention = context.issueText === undefined ? undefined : namedByIssue(context.issueText, test);
  if (mention !== undefined) {
    return mention.kind === 'test'
      ? `named by the issue as "${mention.text}"`
      : `its file "${mention.text}" is named by the issue`;
  }
  const file = testFile(test);
  const touched = file === undefined ? undefined : context.touchedFiles?.find((f) => sameFile(file, f));
  if (touched !== undefined) return `its file ${touched} was changed by this branch`;
  return mode === BaselineMode.RequireFixed ? REQUIRE_FIXED : undefined;
}
