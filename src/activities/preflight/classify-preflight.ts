/**
 * The preflight's judgement of one validator command run on the unchanged base commit,
 * before the first model call. PURE. Another part (the workflow's preflight step) runs
 * the command and acts on the verdict:
 *
 *   passing                  nothing to record
 *   failing-tests-baseline   tests fail on the base, named: their names become the
 *                            baseline, so the run is judged only on regressions
 *   failing-checks-baseline  a type check, lint or format command already fails on the
 *                            base with ordinary diagnostics (not an environment problem;
 *                            an addition to the three verdicts the brief listed)
 *   environment-failure      the command cannot do its job here: it could not run
 *                            (could-not-run.ts: not found, behind a wrapper too), the
 *                            tool or a dependency is missing, it did not finish, the
 *                            tests cannot load, or tests failed and none can be named
 *                            (plain or crash-like output): the gate could not tell the
 *                            agent's fix from the base's failures
 *
 * A missing module of the project under test (pytest collecting `No module named
 * 'mypkg'`) is an environment failure here: on the base nothing the agent did can have
 * caused it (unrecoverable.ts explains why the same output is retryable later on).
 */
import { firstMeaningfulLine, isNoise } from '../conditions/summarize.js';
import { stripAnsi } from '../conditions/strip-ansi.js';
import { parseTestFailures, testFailures, type TestReports } from '../conditions/test-reports/parse-test-failures.js';
import type { FailedTest } from '../../definition/ecosystems/test-runners/failed-test.js';
import { environmentProblem, unrecoverableReason } from '../conditions/unrecoverable.js';
import { failingNow } from '../conditions/test-reports/failing-now.js';
import { couldNotRun, type Remedy } from './could-not-run.js';
import { findSign, MISSING_DEPENDENCY } from './crash-signs.js';

/** The validation command keys of agent.json (`runner.validation.commands`), or any other name. */
export type PreflightCommandKind = 'test' | 'typeCheck' | 'lint' | 'format' | (string & {});

export interface PreflightResult {
  readonly kind: PreflightCommandKind;
  /** The command line (its first word is the program: `npm`'s exit 254 means something). */
  readonly command?: string;
  /** null when the command did not exit by itself (timed out, killed, could not start). */
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Reports the runner wrote (runCollectingReports), when the command ran with them. */
  readonly reports?: TestReports;
}

export type PreflightVerdict =
  | { readonly verdict: 'passing' }
  | { readonly verdict: 'failing-tests-baseline'; readonly failedTests: readonly FailedTest[] }
  | { readonly verdict: 'failing-checks-baseline'; readonly lines: readonly string[] }
  | {
      readonly verdict: 'environment-failure';
      readonly cause: EnvironmentCause;
      readonly reason: string;
      readonly lines: readonly string[];
      /** What would let it run, when it could not (could-not-run.ts). */
      readonly remedy?: Remedy;
      /** The program that was not found, when the output names it. */
      readonly program?: string;
      /** What cannot load (cause not-loadable): the baseline keeps it as failing on base. */
      readonly loads?: readonly FailedTest[];
    };

/**
 * Why the command cannot do its job. Closed set: preflight-stop.ts decides which causes
 * stop a run before the first model call (it cannot run, or its failures cannot be named)
 * and which are only reported (tests that cannot load are named by file; a command that
 * did not finish says nothing about the environment).
 */
export const EnvironmentCause = {
  CouldNotRun: 'could-not-run',
  Unrecoverable: 'unrecoverable',
  MissingDependency: 'missing-dependency',
  NotLoadable: 'not-loadable',
  Crash: 'crash',
  /** A test command failed on the base and none of its failures can be named. */
  UnnamedFailures: 'unnamed-failures',
  DidNotFinish: 'did-not-finish',
} as const;
export type EnvironmentCause = (typeof EnvironmentCause)[keyof typeof EnvironmentCause];

export function classifyPreflight(result: PreflightResult): PreflightVerdict {
  const text = `${result.stderr}\n${result.stdout}`;
  if (result.exitCode === null) {
    return environment(
      EnvironmentCause.DidNotFinish,
      'the command did not finish on the base commit (timed out, killed or not started)',
      text,
    );
  }
  if (result.exitCode === 0) {
    // Exit 0 with failing tests named (`|| true`, a failure-ignore flag): red on the base all the
    // same, as the gate judges the branch's runs (conditions/test-reports/failing-now.ts).
    const named =
      result.kind === 'test'
        ? failingNow(parseTestFailures(`${result.stdout}\n${result.stderr}`, result.reports), {
            exitCode: 0,
            output: `${result.stdout}\n${result.stderr}`,
            reports: result.reports ?? {},
          })
        : [];
    return named.length > 0 ? { verdict: 'failing-tests-baseline', failedTests: named } : { verdict: 'passing' };
  }
  const cannot = couldNotRun({ ...result, command: result.command ?? '', exitCode: result.exitCode });
  if (cannot !== undefined) {
    const { remedy, program } = cannot;
    const how = { remedy, ...(program === undefined ? {} : { program }) };
    return environment(EnvironmentCause.CouldNotRun, cannot.seen, text, cannot.lines, how);
  }
  const fatal = unrecoverableReason({ exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr });
  if (fatal !== undefined) {
    const line = environmentProblem(text)?.line;
    return environment(EnvironmentCause.Unrecoverable, fatal, text, line === undefined ? undefined : [line]);
  }
  return result.kind === 'test' ? classifyTests(result, text) : classifyCheck(text);
}

function classifyTests(result: PreflightResult, text: string): PreflightVerdict {
  const failures = parseTestFailures(`${result.stdout}\n${result.stderr}`, result.reports);
  const loads = failures.filter((f) => f.scope === 'load');
  const missing = loads.find((f) => MISSING_DEPENDENCY.some((p) => p.test(f.excerpt ?? '')));
  if (missing !== undefined) {
    return environment(
      EnvironmentCause.MissingDependency,
      `a dependency is missing: ${missing.name} cannot be loaded`,
      text,
      excerptLines(missing),
    );
  }
  if (testFailures(failures).length > 0) return { verdict: 'failing-tests-baseline', failedTests: failures };
  if (loads.length > 0) {
    return environment(
      EnvironmentCause.NotLoadable,
      `the tests cannot be loaded: ${loads.map((f) => f.name).join(', ')}`,
      text,
      loads.flatMap(excerptLines),
      { loads },
    );
  }
  const sign = findSign(text);
  if (sign !== undefined) {
    return sign.kind === 'missing-dependency'
      ? environment(EnvironmentCause.MissingDependency, 'a dependency is missing', text, sign.lines)
      : environment(
          EnvironmentCause.Crash,
          'the test command failed without naming a failing test and its output looks like a crash',
          text,
          sign.lines,
        );
  }
  return environment(EnvironmentCause.UnnamedFailures, 'it fails and none of its failures can be named', text);
}

function classifyCheck(text: string): PreflightVerdict {
  const sign = findSign(text);
  if (sign?.kind === 'missing-dependency')
    return environment(EnvironmentCause.MissingDependency, 'a dependency is missing', text, sign.lines);
  const lines = meaningfulLines(text, 5);
  return { verdict: 'failing-checks-baseline', lines };
}

function environment(
  cause: EnvironmentCause,
  reason: string,
  text: string,
  lines?: readonly string[],
  how: { readonly remedy?: Remedy; readonly program?: string; readonly loads?: readonly FailedTest[] } = {},
): PreflightVerdict {
  const explained = lines !== undefined && lines.length > 0 ? lines : meaningfulLines(text, 5);
  return { verdict: 'environment-failure', cause, reason, lines: explained, ...how };
}

function excerptLines(failure: FailedTest): string[] {
  return [failure.name, ...(failure.excerpt?.split('\n') ?? [])];
}

/** The first meaningful line and the next few non-blank ones (found without colour codes, as it was). */
function meaningfulLines(text: string, count: number): string[] {
  const first = firstMeaningfulLine(text);
  if (first === undefined) return [];
  const lines = stripAnsi(text)
    .split(/\r?\n/)
    .map((l) => l.trim());
  const at = lines.findIndex((l) => l.startsWith(first.replace(/…$/, '')));
  return (at === -1 ? [first] : lines.slice(at).filter((l) => l !== '' && !isNoise(l))).slice(0, count);
}
