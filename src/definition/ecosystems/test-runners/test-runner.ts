/**
 * What the harness knows of one test runner's output and reports: which tests failed,
 * how many ran, which passed, each read from the lines and report formats the runner
 * itself writes. PURE. An ecosystem module declares the runners it owns
 * (`EcosystemModule.testRunners`); the shared machinery in
 * activities/conditions/test-reports/ (collecting report files, cutting a workspace run's
 * output into its packages, merging what every runner found) walks the registry's
 * runners (ecosystem-registry.ts) and names none.
 *
 * A runner's console readers only match lines its runner prints, so all of them are run
 * over every output: one command may run several runners (`npm test` running jest then
 * `go test`), and a runner is not always recognisable from the command line (`make test`).
 */
import type { FailedTest } from './failed-test.js';

type Lines = readonly string[];

/** Reports a runner wrote besides its output (collected by activities/conditions/test-reports/report-files.ts). */
export interface TestReports {
  /** pytest's `--junitxml` report, when the command ran pytest and it wrote one. */
  readonly junitXml?: string;
  /** Surefire's `TEST-*.xml` reports this run wrote (surefire-report-files.ts), one per test class. */
  readonly surefireXml?: readonly string[];
  /** CTest's JUnit reports this run wrote (`--output-junit`, ctest-report-files.ts). */
  readonly ctestJunit?: readonly string[];
}

/** Every report of the run, each a JUnit-shaped XML document (its testcases are what ran). */
export function xmlReports(reports: TestReports): string[] {
  return [
    ...(reports.junitXml === undefined ? [] : [reports.junitXml]),
    ...(reports.surefireXml ?? []),
    ...(reports.ctestJunit ?? []),
  ];
}

export interface TestRunner {
  /** How the docs and tests call it (`pytest`, `go test`, `Surefire`); unique in the registry. */
  readonly name: string;
  /** The failures its console lines name, in one part of the output (a workspace package's); [] when none is its. */
  readonly failures?: (lines: Lines) => FailedTest[];
  /** The failures its reports name (exact, read before any console); the whole output is given for what it adds. */
  readonly reportFailures?: (reports: TestReports, lines: Lines) => FailedTest[];
  /**
   * Console failures read after every runner's `failures`, only when its report is
   * missing: a console whose names the report gives more exactly.
   */
  readonly failuresWithoutReport?: (lines: Lines, reports: TestReports) => FailedTest[];
  /** How many tests its summary lines say ran (passed or failed; skipped ones not), in one part; undefined when none. */
  readonly count?: (lines: Lines) => number | undefined;
  /** The passing tests its reports (or, without them, its console's result lines) name, listed before any console's. */
  readonly reportPassed?: (reports: TestReports, lines: Lines) => string[];
  /** The passing tests its console names, by the names its failures use. */
  readonly passed?: (lines: Lines) => string[];
}
