/**
 * Runs a test command so that runners with a machine-readable report write one, without
 * changing the command the user configured: pytest reads `PYTEST_ADDOPTS`, so the run
 * gets `--junitxml=<file> -o junit_family=xunit1` there (xunit1: each testcase names
 * its file). Other runners ignore the variable. Maven Surefire writes its XML reports
 * anyway, in the worktree: those this run wrote are read afterwards
 * (surefire-report-files.ts), and so is CTest's JUnit, when the command asks for it
 * (ctest-report-files.ts). `go test` and `cargo test` are read from their text,
 * which is reliable; GOFLAGS is left alone.
 *
 * The report goes to the configured command's own reports dir (tools/validator-view.ts:
 * writable inside its sandbox at the same path, hidden from the agent's commands, outside
 * the worktree so nothing is committed), under a fresh name per run; it is read back and
 * removed. When pytest did not run, crashed before writing, or the user's
 * own `-p no:junitxml` wins, there is no file and the caller parses the text alone.
 *
 * The report is written by the code under test, like its output: it is trusted as much
 * as the output is (names and messages for the retry prompt and the baseline split), and
 * never for whether the command passed (the exit code decides that).
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { CommandOutcome, CommandRequest, CommandRunner } from '../../process/command-runner.js';
import { shellQuote } from '../../process/shell-quote.js';
import { validatorReportDir } from '../../tools/validator-view.js';
import { ctestReports } from './ctest-report-files.js';
import { readReportFile } from './report-file.js';
import type { TestReports } from './parse-test-failures.js';
import { surefireReports } from './surefire-report-files.js';

/** A report larger than this is not read (a runaway suite); the text is parsed instead. */
const MAX_REPORT_BYTES = 4 * 1024 * 1024;

export interface ReportedOutcome {
  readonly outcome: CommandOutcome;
  readonly reports: TestReports;
}

export async function runCollectingReports(commands: CommandRunner, request: CommandRequest): Promise<ReportedOutcome> {
  const dir = validatorReportDir(request.cwd);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const junit = path.join(dir, `junit-${randomUUID()}.xml`);
  try {
    const started = Date.now();
    const outcome = await commands.run({ ...request, env: { ...request.env, ...reportEnv(junit) } });
    const junitXml = (await readReportFile(junit, dir, MAX_REPORT_BYTES))?.text;
    const surefireXml = await surefireReports(request.cwd, started);
    const ctestJunit = await ctestReports(request.cwd, started);
    return {
      outcome,
      reports: {
        ...(junitXml === undefined ? {} : { junitXml }),
        ...(surefireXml.length === 0 ? {} : { surefireXml }),
        ...(ctestJunit.length === 0 ? {} : { ctestJunit }),
      },
    };
  } finally {
    await rm(junit, { force: true }).catch(() => undefined);
  }
}

/** The variables that ask runners for reports. pytest splits PYTEST_ADDOPTS like a shell. */
export function reportEnv(junitPath: string): Record<string, string> {
  return { PYTEST_ADDOPTS: `${shellQuote(`--junitxml=${junitPath}`)} -o junit_family=xunit1` };
}
