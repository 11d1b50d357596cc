/**
 * One task of an eval, in each requested mode: a fresh copy of its repository per run,
 * the run (run-task.ts), then the hidden checks against what it delivered. A SWE-bench
 * task is first checked with its gold patch (outside the agent): when that fails
 * (environment, flaky), or when test-integrity refuses the gold change itself
 * (gold-integrity.ts), the task is invalid, reported apart and never counted. A run that
 * could not set up its environment, or that the harness could not run, is invalid too.
 */
import { rm } from 'node:fs/promises';
import { totalTokens } from '../../contracts/usage.js';
import { FailureType } from '../../contracts/failures.js';
import type { RunResult } from '../../contracts/run.js';
import { repoSettings } from '../../definition/repo-config/repo-settings.js';
import { gateSession, GateMode } from './gate/gate-sessions.js';
import { sabotagePatch, type Sabotage } from './gate/sabotage-patch.js';
import { goldIntegrityFinding } from './gate/gold-integrity.js';
import { patchPaths, runSweChecks, testCommandOf } from './gate/swe-checks.js';
import { runAgentOnTask, type RunContext } from './run-task.js';
import type { EvalTask } from './task-file.js';
import { prepareTaskRepo, runHiddenChecks, type CheckResult } from './task-repo.js';

/** `model`: the environment's model; `recorded`: the task's recorded session (--offline). */
export type EvalMode = GateMode | 'model' | 'recorded';

export interface EvalRow {
  readonly task: string;
  readonly mode: EvalMode;
  /** The run ended in success and its change was delivered. */
  readonly delivered: boolean;
  /** Delivered, and the hidden checks pass on what was delivered. */
  readonly solved: boolean;
  /** Not counted: the gold patch fails the hidden checks, or the environment or harness failed. */
  readonly invalid: boolean;
  readonly invalidReason?: string;
  readonly outcome: RunResult['outcome'] | 'error';
  readonly code?: string;
  readonly iterations: number;
  readonly tokens: number;
  readonly costUsd: number;
  readonly wallMs: number;
  /** What the checks ran against: `main` after a merge, the run's branch, or none. */
  readonly deliveredRef: string | null;
  readonly checks: readonly CheckResult[];
  readonly reason: string;
  /** `--sabotage`: what the scripted model did to the tests. */
  readonly sabotage?: string;
  readonly repoPath?: string;
  readonly workflowId?: string;
}

const isGate = (mode: EvalMode): mode is GateMode => (Object.values(GateMode) as string[]).includes(mode);
const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

function errorRow(task: string, mode: EvalMode, started: number, why: string): EvalRow {
  return {
    task,
    mode,
    delivered: false,
    solved: false,
    invalid: true,
    invalidReason: why,
    outcome: 'error',
    iterations: 0,
    tokens: 0,
    costUsd: 0,
    wallMs: Date.now() - started,
    deliveredRef: null,
    checks: [],
    reason: why,
  };
}

export interface Prepared {
  readonly testCommand?: string;
  readonly goldFailure?: string;
  readonly sabotage?: Sabotage;
}

/** Once per task: the test command, the gold check and (for --sabotage) the sabotage patch. */
export async function prepareTask(task: EvalTask, modes: readonly EvalMode[]): Promise<Prepared> {
  const swe = task.swe;
  if (swe === undefined) return {};
  const source = await prepareTaskRepo(task);
  try {
    const testCommand = await testCommandOf(swe, source);
    const gold = await runSweChecks(source, { patch: swe.patch }, { ...swe, testCommand });
    const refused = await goldIntegrityFinding(source, swe);
    const goldFailure =
      gold.exitCode !== 0
        ? `the gold patch fails the hidden checks: ${oneLine(gold.output).slice(0, 300)}`
        : refused !== undefined
          ? `the gold change itself is refused by test-integrity (by design): ${oneLine(refused).slice(0, 300)}`
          : undefined;
    const sabotage = modes.includes(GateMode.Sabotage) ? await sabotagePatch(source, swe) : undefined;
    return { testCommand, ...(goldFailure === undefined ? {} : { goldFailure }), ...(sabotage ? { sabotage } : {}) };
  } finally {
    await rm(source, { recursive: true, force: true });
  }
}

async function runMode(
  task: EvalTask,
  mode: EvalMode,
  prepared: Prepared,
  context: RunContext & { readonly runId: string },
): Promise<EvalRow> {
  const started = Date.now();
  const swe = task.swe;
  if (isGate(mode) && swe === undefined)
    return errorRow(task.id, mode, started, `--${mode} needs a SWE-bench task (a gold patch and test names)`);
  if (mode === 'recorded' && task.session === undefined)
    return errorRow(task.id, mode, started, `task ${task.id} has no session for --offline`);
  const repoPath = await prepareTaskRepo(task);
  const testCommand = prepared.testCommand ?? 'npm test';
  // The oracle delivers the whole gold commit, its test change included: a gold code change
  // alone can break a visible test the commit updated, and no good fix leaves that red.
  const change =
    mode === GateMode.Oracle && swe !== undefined
      ? `${swe.patch}${swe.testPatch}`
      : mode === GateMode.Sabotage
        ? prepared.sabotage?.patch
        : undefined;
  const session = isGate(mode)
    ? gateSession({
        mode,
        task: task.id,
        title: task.issue.title,
        testCommand,
        ...(change === undefined ? {} : { change, files: patchPaths(change) }),
      })
    : mode === 'recorded'
      ? task.session
      : undefined;
  const settings = swe === undefined ? undefined : await repoSettings(repoPath);
  const run = await runAgentOnTask(context, {
    key: `${context.runId}-${task.id}-${mode}`,
    summary: `Eval task ${task.id} (${mode})`,
    repoPath,
    ...(session === undefined ? {} : { session }),
    ...(settings === undefined
      ? {}
      : {
          overrides: {
            ...settings.overrides,
            validationCommands: { ...settings.overrides.validationCommands, test: testCommand },
          },
        }),
    ...(swe?.setup === undefined ? {} : { setup: swe.setup }),
  });
  const { result, deliveredRef } = run;
  const checks =
    deliveredRef === null
      ? []
      : swe !== undefined
        ? [await runSweChecks(repoPath, { ref: deliveredRef }, { ...swe, testCommand })]
        : await runHiddenChecks(repoPath, deliveredRef, task, context.env);
  const failed = checks.find((c) => c.exitCode !== 0);
  const invalidReason =
    prepared.goldFailure ??
    (result.code === FailureType.EnvironmentFailed
      ? `environment: ${oneLine(result.reason).slice(0, 300)}`
      : undefined);
  return {
    task: task.id,
    mode,
    delivered: deliveredRef !== null,
    solved: deliveredRef !== null && failed === undefined,
    invalid: invalidReason !== undefined,
    ...(invalidReason === undefined ? {} : { invalidReason }),
    outcome: result.outcome,
    ...(result.code === undefined ? {} : { code: result.code }),
    iterations: result.iterations,
    tokens: totalTokens(result.usage),
    costUsd: result.costUsd,
    wallMs: Date.now() - started,
    deliveredRef,
    checks,
    reason:
      deliveredRef === null
        ? `refused: ${result.code ?? result.outcome}: ${result.reason}`
        : failed === undefined
          ? 'delivered; hidden checks pass'
          : `delivered; hidden check failed: ${failed.failing?.length ? `not passing ${failed.failing.join(', ')}` : `${failed.command} (exit ${failed.exitCode})`}`,
    ...(mode === GateMode.Sabotage && prepared.sabotage ? { sabotage: prepared.sabotage.summary } : {}),
    repoPath,
    workflowId: run.workflowId,
  };
}

/**
 * The task's shared preparation (gold check, sabotage patch), then one mode; a harness
 * failure becomes an invalid row, never a thrown error.
 */
export async function evalTaskMode(
  task: EvalTask,
  mode: EvalMode,
  prepared: Promise<Prepared>,
  context: RunContext & { readonly runId: string },
): Promise<EvalRow> {
  const started = Date.now();
  let ready: Prepared;
  try {
    ready = await prepared;
  } catch (err) {
    return errorRow(task.id, mode, started, `could not prepare the task: ${(err as Error).message}`);
  }
  try {
    return await runMode(task, mode, ready, context);
  } catch (err) {
    return errorRow(task.id, mode, started, err instanceof Error ? err.message : String(err));
  }
}
