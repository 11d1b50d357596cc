/**
 * The dispatcher: failing tests from a test command's output, whatever the runner.
 * PURE. Each runner's parser (definition/ecosystems/test-runners/, declared by the
 * ecosystem that owns it) only matches lines its runner prints, so all of them are run
 * over the output, in the registry's report order, and the results merged: one command
 * may run several runners (`npm test` running jest then `go test`), and a runner is not
 * always recognisable from the command line (`make test`).
 *
 * A machine-readable report (collected by report-files.ts) comes first: its names, files
 * and messages are exact. The text is still parsed: a report covers only the runner that
 * wrote it, and the same test found in both is merged (same name: a runner names a test
 * the same in its report and on its console). A console whose names its report gives more
 * exactly is read only without the report (TestRunner.failuresWithoutReport), after the
 * others.
 *
 * A pnpm recursive run's output is first cut into its packages (workspace-prefixes.ts),
 * an npm workspaces run's into its workspaces (npm-workspace-parts.ts), each parsed on
 * its own.
 */
import { TEST_RUNNERS } from '../../../definition/ecosystems/ecosystem-registry.js';
import { dedupe, type FailedTest } from '../../../definition/ecosystems/test-runners/failed-test.js';
import type { TestReports } from '../../../definition/ecosystems/test-runners/test-runner.js';
import { stripAnsi } from '../strip-ansi.js';
import { npmWorkspaceParts } from './npm-workspace-parts.js';
import { inPackage, workspaceParts } from './workspace-prefixes.js';

export type { FailedTest } from '../../../definition/ecosystems/test-runners/failed-test.js';
export type { TestReports } from '../../../definition/ecosystems/test-runners/test-runner.js';

export function parseTestFailures(output: string, reports: TestReports = {}): FailedTest[] {
  const lines = stripAnsi(output).split(/\r?\n/);
  const fromReports = TEST_RUNNERS.flatMap((runner) => runner.reportFailures?.(reports, lines) ?? []);
  const parts = workspaceParts(lines).flatMap((part) =>
    part.dir === undefined ? npmWorkspaceParts(part.lines) : [part],
  );
  const fromText = parts.flatMap((part) =>
    [
      ...TEST_RUNNERS.flatMap((runner) => runner.failures?.(part.lines) ?? []),
      ...TEST_RUNNERS.flatMap((runner) => runner.failuresWithoutReport?.(part.lines, reports) ?? []),
    ].map((failure) => inPackage(part.dir, failure)),
  );
  return dedupe([...fromReports, ...fromText]);
}

/** The failures that are tests (not files or packages that failed to load). */
export function testFailures(failures: readonly FailedTest[]): FailedTest[] {
  return failures.filter((f) => f.scope !== 'load');
}
