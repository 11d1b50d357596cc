/**
 * The preflight activity's body: each command validator the agent will be judged by runs
 * once in the run's worktree, still at the base commit and in its prepared environment,
 * inside the same sandbox as every validator (offline, no credentials); classify-preflight
 * judges the result.
 *
 * - A command that cannot run (not found, not executable, behind a wrapper too: npm's
 *   exit 254, make's `Error 127`, Maven's unresolved plugins; a missing dependency) ends
 *   the run: ENVIRONMENT_FAILED with the command, its exit code, the lines that explain
 *   it and what to configure, before any model request (preflight-stop.ts).
 * - So does a test command failing on the base with no failure named: the gate could
 *   not tell the agent's fix from the base's failures.
 * - A test command failing with named tests records them as the baseline, so a repository
 *   with an unrelated red test can still finish (`baseline: ignore`).
 * - Anything else failing on the base (lint errors, tests that cannot load on the base)
 *   is reported, not fatal: it may be what the issue is about.
 * - What a command adds to the worktree (test binaries, coverage files) is taken away
 *   after it (conditions/validator-outputs.ts): the agent starts from the base, not from
 *   the preflight's leftovers, and is never blamed for them.
 */
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import {
  PreflightStatus,
  type PreflightCheck,
  type PreflightInput,
  type PreflightReport,
} from '../../contracts/preflight.js';
import type { CommandRunner } from '../process/command-runner.js';
import { worktreeAtCommit, worktreeStateAndBase, type WorktreeState } from '../conditions/base-commit.js';
import { recordBaseline } from '../conditions/baseline/baseline-run.js';
import { notLoadingOf } from '../conditions/baseline/classify-failures.js';
import { commandSummary } from '../conditions/summarize.js';
import { runCollectingReports } from '../conditions/test-reports/report-files.js';
import { testFailures } from '../conditions/test-reports/parse-test-failures.js';
import { countTestsRun } from '../conditions/test-reports/tests-run.js';
import { removeValidatorOutputs, snapshotTree } from '../conditions/validator-outputs.js';
import { markTrusted } from '../conditions/judged-tree/judge-the-commit.js';
import { seedAgentCargoTarget } from './seed-agent-build.js';
import type { FailedTest } from '../../definition/ecosystems/test-runners/failed-test.js';
import { classifyPreflight, type PreflightVerdict } from './classify-preflight.js';
import { preflightCommands, type PreflightCommand } from './preflight-commands.js';
import { preflightStop, stopsTheRun } from './preflight-stop.js';

export interface PreflightDeps {
  readonly commands: CommandRunner;
  readonly signal?: AbortSignal;
}

const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;

export async function runPreflight(deps: PreflightDeps, input: PreflightInput): Promise<PreflightReport> {
  const { state, base: commit } = await worktreeStateAndBase(input.worktreePath);
  const notAtBase = await workBeyondBase(input.worktreePath, commit, state);
  if (notAtBase !== undefined) return { checks: [], skipped: notAtBase };
  const checks: PreflightCheck[] = [];
  const before = await snapshotTree(input.worktreePath);
  for (const planned of preflightCommands(input.completionSteps, input.validators)) {
    const { outcome, reports } = await runCollectingReports(deps.commands, {
      command: planned.command,
      cwd: input.worktreePath,
      timeoutMs: planned.definition.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      ...(deps.signal ? { signal: deps.signal } : {}),
    });
    // A test binary or coverage file the command left is not the agent's: gone before the first step.
    if (before !== undefined) await removeValidatorOutputs(input.worktreePath, before);
    const { command, validator } = planned;
    if (outcome.kind === 'canceled')
      throw new AgentError(FailureType.ValidationAborted, `preflight of \`${command}\` was cancelled`);
    if (outcome.kind === 'timedOut') {
      const summary = commandSummary({ command, ended: 'timed out on the base', stdout: '', stderr: '' });
      checks.push({ validator, command, status: PreflightStatus.TimedOut, summary });
      continue;
    }
    const exitCode = outcome.kind === 'exited' ? (outcome.exitCode ?? null) : null;
    const verdict = classifyPreflight({
      kind: planned.runsTests ? 'test' : validator,
      command,
      exitCode,
      stdout: outcome.stdout,
      stderr: `${outcome.stderr}${outcome.error ? `\n${outcome.error}` : ''}`,
      reports,
    });
    const check = checkOf(planned, exitCode, verdict, outcome);
    // Passing, red with names, or with files that cannot load, the base's measure is kept:
    // which tests failed, what could not load (failing-on-base, as the gate then calls it
    // too) and how many ran, so the gate can tell a fix from tests that stopped running
    // (baseline/tests-ran.ts) and a file that never loaded from one the branch broke.
    const notLoading = notLoadingOf(loadsOf(verdict));
    const measured =
      check.status === PreflightStatus.Baseline || check.status === PreflightStatus.Passed || notLoading.length > 0;
    if (measured && commit !== undefined && planned.definition.baseline !== undefined) {
      const testsRun = countTestsRun(`${outcome.stdout}\n${outcome.stderr}`, reports);
      await recordBaseline(input.worktreePath, {
        commit,
        command,
        exitCode,
        failedTests: check.failedTests ?? [],
        notLoading,
        ...(testsRun === undefined ? {} : { testsRun }),
      });
    }
    checks.push(check);
  }
  // The agent's first cargo build starts from the base's, not cold (seed-agent-build.ts).
  await seedAgentCargoTarget(deps.commands, input.worktreePath).catch(() => false);
  // What setup and the preflight left is the harness's: the validators keep it (judged-tree/).
  await markTrusted(input.worktreePath);
  return { checks };
}

/**
 * The preflight judges the base: in a worktree that already holds the run's commits or
 * edits (a failed run revived), what it would measure is the agent's work, not the base.
 */
async function workBeyondBase(
  worktreePath: string,
  commit: string | undefined,
  state: WorktreeState,
): Promise<string | undefined> {
  if (commit === undefined) return 'no base commit is recorded for this worktree';
  if (await worktreeAtCommit(worktreePath, commit, state)) return undefined;
  return 'the worktree already holds work beyond the base commit (a revived run): the base was checked when the run began';
}

/** What the verdict names as unable to load on the base. */
function loadsOf(verdict: PreflightVerdict): readonly FailedTest[] {
  if (verdict.verdict === 'failing-tests-baseline') return verdict.failedTests;
  return verdict.verdict === 'environment-failure' ? (verdict.loads ?? []) : [];
}

/** One command's verdict as a check; throws ENVIRONMENT_FAILED for a verdict no run could get past. */
function checkOf(
  planned: PreflightCommand,
  exitCode: number | null,
  verdict: PreflightVerdict,
  outcome: { readonly stdout: string; readonly stderr: string },
): PreflightCheck {
  const { command, validator } = planned;
  const code = exitCode === null ? {} : { exitCode };
  const failures = verdict.verdict === 'failing-tests-baseline' ? testFailures(verdict.failedTests) : [];
  const failing = (ended: string) => commandSummary({ command, ended, ...outcome, failures });
  switch (verdict.verdict) {
    case 'passing':
      return {
        validator,
        command,
        status: PreflightStatus.Passed,
        ...code,
        summary: `\`${command}\` passes on the base`,
      };
    case 'failing-tests-baseline': {
      const names = [...new Set(testFailures(verdict.failedTests).map((t) => t.name))];
      const ended =
        exitCode === 0
          ? 'fails on the base (exit 0, but the test runner names failing tests)'
          : `fails on the base (exit ${exitCode ?? '-'})`;
      return names.length > 0
        ? { validator, command, status: PreflightStatus.Baseline, ...code, failedTests: names, summary: failing(ended) }
        : { validator, command, status: PreflightStatus.FailingOnBase, ...code, summary: failing(ended) };
    }
    case 'failing-checks-baseline':
      return {
        validator,
        command,
        status: PreflightStatus.FailingOnBase,
        ...code,
        summary: failing(`fails on the base (exit ${exitCode ?? '-'})`),
      };
    case 'environment-failure':
      if (stopsTheRun(verdict)) throw preflightStop(planned, exitCode, verdict);
      return {
        validator,
        command,
        status: PreflightStatus.FailingOnBase,
        ...code,
        summary: `\`${command}\` on the base: ${verdict.reason}`,
      };
  }
}
