/**
 * The dispatcher: failing tests from a test command's output, whatever the runner.
 * PURE. Each runner's parser (one module per runner here) only matches lines its
 * runner prints, so all of them are run over the output and the results merged: one
 * command may run several runners (`npm test` running jest then `go test`), and a
 * runner is not always recognisable from the command line (`make test`).
 *
 * A machine-readable report (pytest's JUnit XML, Surefire's XML reports, collected by
 * report-files.ts) comes first: its names, files and messages are exact. The text is
 * still parsed: a report covers only the runner that wrote it, and the same test found
 * in both is merged (same name: both sources yield pytest node ids, or Surefire's
 * `Class#method`). Surefire's console lines are read only without its XML (a console
 * name cannot tell a nested class from its outer one); javac's errors always are.
 * CTest's JUnit and its console both name tests by their CTest names, and a C or C++
 * build that failed before the tests ran names its files as load failures.
 *
 * A pnpm recursive run's output is first cut into its packages (workspace-prefixes.ts),
 * an npm workspaces run's into its workspaces (npm-workspace-parts.ts), each parsed on
 * its own.
 */
import { stripAnsi } from '../strip-ansi.js';
import { automake } from './automake.js';
import { cBuildErrors } from './c-build-errors.js';
import { cargoTest } from './cargo-test.js';
import { ctestConsole, readCTestConsole } from './ctest-console.js';
import { parseCTestJUnit } from './ctest-junit.js';
import { dedupe, type FailedTest } from './failed-test.js';
import { gtest } from './gtest.js';
import { goTestJson, goTestText } from './go-test.js';
import { jest, vitest } from './jest-vitest.js';
import { parseJUnitXml } from './junit-xml.js';
import { mocha } from './mocha.js';
import { npmWorkspaceParts } from './npm-workspace-parts.js';
import { nodeSpec, nodeTap } from './node-test.js';
import { pytest } from './pytest.js';
import { mavenCompileErrors, surefireConsole } from './surefire-console.js';
import { parseSurefireXml } from './surefire-xml.js';
import { unity } from './unity.js';
import { inPackage, workspaceParts } from './workspace-prefixes.js';

export type { FailedTest } from './failed-test.js';

/** Reports a runner wrote besides its output (see report-files.ts). */
export interface TestReports {
  /** pytest's `--junitxml` report, when the command ran pytest and it wrote one. */
  readonly junitXml?: string;
  /** Surefire's `TEST-*.xml` reports this run wrote (surefire-report-files.ts), one per test class. */
  readonly surefireXml?: readonly string[];
  /** CTest's JUnit reports this run wrote (`--output-junit`, ctest-report-files.ts). */
  readonly ctestJunit?: readonly string[];
}

type Parser = (lines: readonly string[]) => FailedTest[];

/** pytest's text is parsed only when it is pytest's: `FAILED x`/`ERROR x` alone are too common. */
const looksLikePytest = (lines: readonly string[]): boolean =>
  lines.some((l) => /^={3,} (short test summary info|FAILURES|ERRORS) ={3,}$/.test(l));

const PARSERS: readonly Parser[] = [
  nodeTap,
  nodeSpec,
  vitest,
  jest,
  mocha,
  (lines) => (looksLikePytest(lines) ? pytest(lines) : []),
  goTestJson,
  goTestText,
  cargoTest,
  mavenCompileErrors,
  ctestConsole,
  gtest,
  unity,
  automake,
  cBuildErrors,
];

export function parseTestFailures(output: string, reports: TestReports = {}): FailedTest[] {
  const lines = stripAnsi(output).split(/\r?\n/);
  const surefireXml = reports.surefireXml ?? [];
  const fromReports = [
    ...(reports.junitXml === undefined ? [] : parseJUnitXml(reports.junitXml)),
    ...parseSurefireXml(surefireXml),
    ...parseCTestJUnit(reports.ctestJunit ?? [], readCTestConsole(lines)),
  ];
  const parsers = surefireXml.length > 0 ? PARSERS : [...PARSERS, surefireConsole];
  const parts = workspaceParts(lines).flatMap((part) =>
    part.dir === undefined ? npmWorkspaceParts(part.lines) : [part],
  );
  const fromText = parts.flatMap((part) =>
    parsers.flatMap((parse) => parse(part.lines)).map((failure) => inPackage(part.dir, failure)),
  );
  return dedupe([...fromReports, ...fromText]);
}

/** The failures that are tests (not files or packages that failed to load). */
export function testFailures(failures: readonly FailedTest[]): FailedTest[] {
  return failures.filter((f) => f.scope !== 'load');
}
