/**
 * Real projects for the environment tests: a git repository made in a temp dir from
 * the files a test gives (never third-party code: dependencies come from the
 * registries at setup), a worktree of it outside the checkout as runs have, a state
 * dir of its own (so caches start cold per test file), and a runner of commands
 * THROUGH the agent's sandbox, the path validators use.
 */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { sandboxCommand } from '../../../src/activities/tools/sandbox-launch.js';
import { makeTempGitRepo, type TempGitRepo } from '../../helpers/temp-git-repo.js';

export interface Project {
  readonly repo: TempGitRepo;
  /** Adds a fresh worktree of the repository's main at a new path. */
  worktree(name?: string): Promise<string>;
  cleanup(): Promise<void>;
}

let stateDir: string | undefined;

/** One state dir per test file (set before the first prepare; caches shared within the file). */
export async function useTempStateDir(): Promise<string> {
  stateDir ??= await realpath(await mkdtemp(path.join(os.tmpdir(), 'env-state-')));
  process.env['ISSUE_AGENT_STATE_DIR'] = stateDir;
  return stateDir;
}

export async function removeTempStateDir(): Promise<void> {
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
  stateDir = undefined;
}

export async function makeProject(
  files: Record<string, string>,
  prepare?: (repo: TempGitRepo) => Promise<void>,
): Promise<Project> {
  const repo = await makeTempGitRepo({ files });
  if (prepare) {
    await prepare(repo);
    await repo.git('add', '-A');
    await repo.git('commit', '--quiet', '-m', 'lockfile');
  }
  const trees = await realpath(await mkdtemp(path.join(os.tmpdir(), 'env-worktrees-')));
  let count = 0;
  return {
    repo,
    async worktree(name) {
      const dir = path.join(trees, name ?? `wt-${(count += 1)}`);
      await repo.git('worktree', 'add', '--quiet', '--detach', dir, 'main');
      return dir;
    },
    async cleanup() {
      await rm(trees, { recursive: true, force: true });
      await repo.cleanup();
    },
  };
}

export interface SandboxRun {
  readonly exitCode: number | undefined;
  readonly output: string;
}

/** Runs `command` in the worktree exactly as a validator would: inside the agent's sandbox. */
export async function runInSandbox(worktree: string, command: string): Promise<SandboxRun> {
  const sandbox = await sandboxCommand({ dir: worktree, command, readOnly: false });
  const result = await execa(sandbox.file, sandbox.args, {
    cwd: worktree,
    env: sandbox.env,
    extendEnv: false,
    reject: false,
    all: true,
    timeout: 180_000,
  });
  return { exitCode: result.exitCode, output: result.all ?? '' };
}
