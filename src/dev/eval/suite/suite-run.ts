/**
 * The eval's way to run a repository's tests: exactly as a run's validators do. The
 * worktree is prepared by the environment phase's own code (prepareEnvironment: the
 * detected or configured setup, networked, scrubbed of secrets, on committed code only),
 * then the test command runs through the command runner validators use (the agent's
 * sandbox, no worker credential, report files collected), and its output is read by the
 * failure parsers (conditions/test-reports) and passed-tests.ts.
 */
import type { EnvironmentReport } from '../../../contracts/environment.js';
import { prepareEnvironment } from '../../../activities/environment/prepare-environment.js';
import { createContainedSetupRunner } from '../../../activities/environment/sandboxed-setup-runner.js';
import { scrubbedEnv } from '../../../activities/process/scrubbed-env.js';
import { createSpawnerCommandRunner } from '../../../activities/process/spawner-command-runner.js';
import { runCollectingReports } from '../../../activities/conditions/test-reports/report-files.js';
import { parseTestFailures } from '../../../activities/conditions/test-reports/parse-test-failures.js';
import { passedTests } from '../../../activities/conditions/test-reports/passed-tests.js';
import type { SuiteRun } from './test-verdicts.js';

/** A command run and what its output named. */
export interface SuiteResult extends SuiteRun {
  readonly command: string;
  /** The last part of the output (for a report). */
  readonly tail: string;
  readonly durationMs: number;
}

const TEST_TIMEOUT_MS = 15 * 60_000;
const TAIL_CHARS = 4000;
/** Far above the validators' cap: a passing test's name elided from the middle would read as not run. */
const OUTPUT_CAP_CHARS = 16 * 1024 * 1024;

/**
 * Prepares `worktree` (at `baseCommit`, clean) as a run's environment phase would. Throws
 * the phase's ENVIRONMENT_FAILED error when setup fails.
 */
export async function prepareSuite(options: {
  readonly worktree: string;
  readonly repoPath: string;
  readonly baseCommit?: string;
  readonly setup?: readonly string[];
  readonly log?: (line: string) => void;
}): Promise<EnvironmentReport> {
  return prepareEnvironment(
    {
      runner: createContainedSetupRunner(),
      env: scrubbedEnv(process.env),
      ...(options.log === undefined ? {} : { log: options.log }),
    },
    {
      worktreePath: options.worktree,
      repoPath: options.repoPath,
      ...(options.baseCommit === undefined ? {} : { baseCommit: options.baseCommit }),
      ...(options.setup === undefined ? {} : { setup: options.setup }),
    },
  );
}

/**
 * The command as the eval runs it: plain `go test` names no passing test, so the eval's
 * own runs (mining, hidden checks) add `-v` to fill PASS_TO_PASS; the agent's validators
 * keep the task's command. PURE.
 */
export function namingCommand(command: string): string {
  const go = /^(\s*go test)(\s|$)/.exec(command);
  if (go === null || /(^|\s)-(v|json)(\s|=|$)/.test(command)) return command;
  return `${go[1]} -v${command.slice(go[1]!.length)}`;
}

export async function runSuite(worktree: string, command: string): Promise<SuiteResult> {
  const { outcome, reports } = await runCollectingReports(
    createSpawnerCommandRunner({ outputCapChars: OUTPUT_CAP_CHARS }),
    {
      command: namingCommand(command),
      cwd: worktree,
      timeoutMs: TEST_TIMEOUT_MS,
    },
  );
  const output = `${outcome.stdout}\n${outcome.stderr}`;
  const passed = passedTests(output, reports);
  return {
    command,
    ran: outcome.kind === 'exited',
    exitCode: outcome.exitCode ?? null,
    failures: parseTestFailures(output, reports),
    ...(passed === undefined ? {} : { passed }),
    tail: (outcome.all || output).slice(-TAIL_CHARS),
    durationMs: outcome.durationMs,
  };
}
