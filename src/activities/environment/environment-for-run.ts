/**
 * The environment of a run's worktree, as the workflow's environment phase asks for it.
 * Setup runs the repository's code with the network and writes the shared package caches
 * (in the sandbox: sandboxed-setup-runner), so it only ever runs on the committed base,
 * before the agent has worked in the worktree:
 *
 * - a worktree prepared once keeps that environment: a revived run, a continued one, a
 *   new run of the same issue reusing the worktree. At its base or not, it may hold files
 *   the agent added (untracked, or in a directory whose own `.gitignore` hides it from
 *   `git status`) that setup would read: a `.agent/config.json`, a `.mvn/jvm.config`;
 * - a worktree never prepared is prepared when it is at its base commit with no file
 *   added, or when setup already began there (a retry after a failed step, whose leftovers
 *   are setup's); the base commit is the guard. A run moved to a new host gets a fresh
 *   worktree restored to its checkpoint, whose new files are untracked: none is prepared;
 * - an agent-written setup's commands run in the sandbox (agent-setup.md), so a proposal
 *   is tried on the base as before, whatever an earlier attempt wrote.
 */
import { existsSync } from 'node:fs';
import type { EnvironmentReport, PrepareEnvironmentInput } from '../../contracts/environment.js';
import { worktreeAtCommit, worktreeState, worktreeStateAndBase } from '../conditions/base-commit.js';
import { git } from '../workspace/git/git.js';
import { worktreeLayout } from './cache-layout.js';
import { readEnvironmentReport } from './environment-file.js';

type Prepare = (input: PrepareEnvironmentInput) => Promise<EnvironmentReport>;

export async function environmentForRun(prepare: Prepare, input: PrepareEnvironmentInput): Promise<EnvironmentReport> {
  const existing = readEnvironmentReport(input.worktreePath);
  if (existing !== undefined && input.agentWritten !== true) return reused(existing, input);
  // One sandbox launch for both when the base is not given.
  const { state, base } =
    input.baseCommit === undefined
      ? await worktreeStateAndBase(input.worktreePath)
      : { state: await worktreeState(input.worktreePath), base: input.baseCommit };
  const pristine =
    base !== undefined &&
    (await worktreeAtCommit(input.worktreePath, base, state)) &&
    (input.agentWritten === true || setupBegunHere(input.worktreePath) || !(await filesAdded(input.worktreePath)));
  if (base === undefined || pristine) {
    return prepare({ ...input, ...(base === undefined ? {} : { baseCommit: base }) });
  }
  if (existing !== undefined) return reused(existing, input);
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

function reused(existing: EnvironmentReport, input: PrepareEnvironmentInput): EnvironmentReport {
  // A configured setup changed since (a fix after a preflight stop): say it did not run and how to get it.
  const ran = new Set(existing.steps.map((step) => step.command));
  const missed = (input.setup ?? []).filter((command) => !ran.has(command));
  const changed =
    missed.length === 0
      ? []
      : [
          `commands.setup changed since this worktree was prepared, and \`${missed[0]}\` did not run: setup never runs again in a worktree the agent may have worked in; to prepare it from the base, remove it and its branch (\`git worktree remove --force ${input.worktreePath}\`, then \`git branch -D\` the issue's branch: their work is lost) and start the run again`,
        ];
  return {
    ...existing,
    steps: existing.steps.map((step) => ({ ...step, status: 'skipped', durationMs: 0 })),
    warnings: [
      ...existing.warnings,
      'the environment prepared when the run began is reused: setup runs only before the agent works in the worktree',
      ...changed,
    ],
    durationMs: 0,
  };
}

/** prepareEnvironment made its per-worktree stamps dir: files git shows now may be setup's own leftovers. */
function setupBegunHere(worktreePath: string): boolean {
  return existsSync(worktreeLayout(worktreePath).stamps);
}

/** A file git does not track and does not ignore (a checkpoint's new file restored on another host). */
async function filesAdded(worktreePath: string): Promise<boolean> {
  const status = await git(worktreePath, ['status', '--porcelain', '--untracked-files=normal']);
  return status.exitCode !== 0 || status.stdout.trim() !== '';
}
