/**
 * The preflight activity's body: each command validator the agent will be judged by runs
 * once in the run's worktree, still at the base commit and in its prepared environment,
 * inside the same sandbox as every validator (offline, no credentials).
 *
 * - A command that cannot run (not found, not executable, a tool reporting a missing
 *   command or missing dependencies, a crash) ends the run: ENVIRONMENT_FAILED with the
 *   command, its exit code and the lines that explain it, before any model request.
 * - A test command failing with named tests records them as the baseline, so a repository
 *   with an unrelated red test can still finish (`baseline: ignore`).
 * - Anything else failing on the base is reported, not fatal: it may be what the issue is about.
 */
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import {
  PreflightStatus,
  type PreflightCheck,
  type PreflightInput,
  type PreflightReport,
} from '../../contracts/preflight.js';
import type { CommandOutcome, CommandRunner } from '../process/command-runner.js';
import { baseCommit } from '../validate/base-commit.js';
import { git } from '../workspace/git/git.js';
import { recordBaseline } from '../validate/baseline/baseline-run.js';
import { parseTestOutput } from '../validate/parse-test-output.js';
import { commandSummary } from '../validate/summarize.js';
import { unrecoverableReason } from '../validate/unrecoverable.js';
import { preflightCommands, type PreflightCommand } from './preflight-commands.js';
import { explainingLines } from './explaining-lines.js';

export interface PreflightDeps {
  readonly commands: CommandRunner;
  readonly signal?: AbortSignal;
}

const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;

export async function runPreflight(deps: PreflightDeps, input: PreflightInput): Promise<PreflightReport> {
  const commit = await baseCommit(input.worktreePath);
  const notAtBase = await workBeyondBase(input.worktreePath, commit);
  if (notAtBase !== undefined) return { checks: [], skipped: notAtBase };
  const checks: PreflightCheck[] = [];
  for (const planned of preflightCommands(input.completionSteps, input.validators)) {
    const outcome = await deps.commands.run({
      command: planned.command,
      cwd: input.worktreePath,
      timeoutMs: planned.definition.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      ...(deps.signal ? { signal: deps.signal } : {}),
    });
    const check = judge(planned, outcome);
    if (check.status === PreflightStatus.Baseline && commit !== undefined && planned.definition.baseline !== undefined)
      await recordBaseline(input.worktreePath, {
        commit,
        command: planned.command,
        exitCode: outcome.exitCode ?? null,
        failedTests: check.failedTests ?? [],
      });
    checks.push(check);
  }
  return { checks };
}

/**
 * The preflight judges the base: in a worktree that already holds the run's commits or
 * edits (a failed run revived), what it would measure is the agent's work, not the base.
 */
async function workBeyondBase(worktreePath: string, commit: string | undefined): Promise<string | undefined> {
  if (commit === undefined) return 'no base commit is recorded for this worktree';
  const head = await git(worktreePath, ['rev-parse', 'HEAD']);
  const status = await git(worktreePath, ['status', '--porcelain', '--untracked-files=no']);
  if (head.exitCode === 0 && head.stdout.trim() === commit && status.exitCode === 0 && status.stdout.trim() === '')
    return undefined;
  return 'the worktree already holds work beyond the base commit (a revived run): the base was checked when the run began';
}

/** One command's result on the base; throws ENVIRONMENT_FAILED when it cannot run at all. */
function judge(planned: PreflightCommand, outcome: CommandOutcome): PreflightCheck {
  const { command, validator } = planned;
  switch (outcome.kind) {
    case 'canceled':
      throw new AgentError(FailureType.ValidationAborted, `preflight of \`${command}\` was cancelled`);
    case 'timedOut':
      return {
        validator,
        command,
        status: PreflightStatus.TimedOut,
        summary: commandSummary({ command, ended: 'timed out on the base', stdout: '', stderr: '' }),
      };
    case 'crashed':
      throw environmentFailed(command, undefined, outcome.error ?? 'could not be started', outcome);
    case 'exited':
      break;
  }
  const exitCode = outcome.exitCode ?? -1;
  if (exitCode === 0)
    return {
      validator,
      command,
      status: PreflightStatus.Passed,
      exitCode,
      summary: `\`${command}\` passes on the base`,
    };
  const fatal = unrecoverableReason({ exitCode, stdout: outcome.stdout, stderr: outcome.stderr });
  if (fatal !== undefined) throw environmentFailed(command, exitCode, fatal, outcome);
  const failedTests = [...new Set(parseTestOutput(`${outcome.stdout}\n${outcome.stderr}`).map((t) => t.name))];
  const summary = commandSummary({ command, ended: `fails on the base (exit ${exitCode})`, ...outcome });
  return failedTests.length > 0
    ? { validator, command, status: PreflightStatus.Baseline, exitCode, failedTests, summary }
    : { validator, command, status: PreflightStatus.FailingOnBase, exitCode, summary };
}

function environmentFailed(
  command: string,
  exitCode: number | undefined,
  reason: string,
  outcome: CommandOutcome,
): AgentError {
  const lines = explainingLines(`${outcome.stderr}\n${outcome.stdout}`);
  const ended = exitCode === undefined ? reason : `exit ${exitCode}: ${reason}`;
  return new AgentError(
    FailureType.EnvironmentFailed,
    `the environment cannot run \`${command}\` on the base commit (${ended}); no model request was made${lines.length > 0 ? `\n${lines.map((l) => `  ${l}`).join('\n')}` : ''}`,
    {
      where: "commands (.agent/config.json) or the agent's completion conditions",
      expected:
        'a command that runs in the prepared worktree: install the tool, fix commands.setup, or fix the command',
      details: { command, ...(exitCode === undefined ? {} : { exitCode }), lines },
    },
  );
}
