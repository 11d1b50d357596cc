/**
 * The environment of a run's worktree, as the workflow's environment phase asks for it.
 * Setup runs the repository's code with the network and outside the sandbox, so it only
 * ever runs on the committed base:
 *
 * - a worktree still at its base commit is prepared (or found prepared: the steps are
 *   stamped), with the base commit as the guard;
 * - a worktree that already holds the run's work (a failed run revived, a continued run)
 *   reuses the environment prepared when the run began; when there is none, nothing is
 *   installed (that would run what the agent wrote, with the network) and the report
 *   says so.
 */
import type { EnvironmentReport, PrepareEnvironmentInput } from '../../contracts/environment.js';
import { baseCommit, worktreeAtCommit, worktreeState } from '../conditions/base-commit.js';
import { readEnvironmentReport } from './environment-file.js';

type Prepare = (input: PrepareEnvironmentInput) => Promise<EnvironmentReport>;

export async function environmentForRun(prepare: Prepare, input: PrepareEnvironmentInput): Promise<EnvironmentReport> {
  const state = await worktreeState(input.worktreePath);
  const base = input.baseCommit ?? (await baseCommit(input.worktreePath, undefined, state));
  if (base === undefined || (await worktreeAtCommit(input.worktreePath, base, state))) {
    return prepare({ ...input, ...(base === undefined ? {} : { baseCommit: base }) });
  }
  const existing = readEnvironmentReport(input.worktreePath);
  if (existing !== undefined) {
    return {
      ...existing,
      steps: existing.steps.map((step) => ({ ...step, status: 'skipped', durationMs: 0 })),
      warnings: [
        ...existing.warnings,
        'the worktree already holds the run’s work: the environment prepared when the run began is reused',
      ],
      durationMs: 0,
    };
  }
  return {
    version: 1,
    worktreePath: input.worktreePath,
    detected: [],
    steps: [],
    cached: false,
    sandbox: { pathPrepend: [], env: {}, readOnlyDirs: [], writableDirs: [] },
    warnings: [
      'no environment was prepared: the worktree already holds the run’s work, and setup never runs code the agent wrote with the network (start a new run to prepare one from the base)',
    ],
    durationMs: 0,
  };
}
