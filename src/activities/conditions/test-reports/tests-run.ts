/**
 * How many tests a run executed, passed or failed (skipped and todo ones do not count),
 * from the reports the runner wrote or the summary line each runner prints
 * (TestRunner.count, in definition/ecosystems/test-runners/). PURE.
 *
 * The gate compares it with the same command's count on the base commit: a branch that
 * makes the tests pass by running fewer of them (`<skipTests>` in a pom, a pytest
 * `--deselect`, a narrowed test script, a build tag on a test file) shows up as a drop,
 * whatever file it edited. Both counts come from this one function over the same
 * command's output, so a runner counted in packages (plain `go test ./...`) is compared
 * with itself.
 *
 * Undefined when nothing says how many tests ran (a runner we do not read, a quiet run
 * with no report): callers must not read that as zero.
 */
import { TEST_RUNNERS } from '../../../definition/ecosystems/ecosystem-registry.js';
import { ranInXml } from '../../../definition/ecosystems/test-runners/junit-xml.js';
import { xmlReports, type TestReports } from '../../../definition/ecosystems/test-runners/test-runner.js';
import { stripAnsi } from '../strip-ansi.js';
import { npmWorkspaceParts } from './npm-workspace-parts.js';
import { workspaceParts } from './workspace-prefixes.js';

export function countTestsRun(output: string, reports: TestReports = {}): number | undefined {
  // Any report counts the run: its testcases without a `<skipped>` child.
  const xmls = xmlReports(reports);
  if (xmls.length > 0) return xmls.reduce((sum, xml) => sum + ranInXml(xml), 0);
  const lines = stripAnsi(output).split(/\r?\n/);
  const parts = workspaceParts(lines).flatMap((part) =>
    part.dir === undefined ? npmWorkspaceParts(part.lines) : [part],
  );
  let total: number | undefined;
  for (const part of parts) {
    for (const runner of TEST_RUNNERS) {
      const n = runner.count?.(part.lines);
      if (n !== undefined) total = (total ?? 0) + n;
    }
  }
  return total;
}
