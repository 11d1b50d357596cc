/**
 * Real projects for the environment tests: a git repository made in a temp dir from
 * the files a test gives (never third-party code: dependencies come from the
 * registries at setup), a worktree of it outside the checkout as runs have, a state
 * dir of its own (so caches start cold per test file), and a runner of commands
 * THROUGH the agent's sandbox, the path validators use.
 */
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import {
  createEnvironmentActivities,
  type EnvironmentActivities,
} from '../../../src/activities/environment/create-environment-activities.js';
import type { EnvironmentReport, PrepareEnvironmentInput } from '../../../src/contracts/environment.js';
import { runInSandbox as runCommandInSandbox } from '../../helpers/run-in-sandbox.js';
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

/**
 * Runs `command` in the worktree as the agent's bash tool does (`validator: true`: as a
 * validator does, with its own HOME and build outputs).
 */
export async function runInSandbox(
  worktree: string,
  command: string,
  options: { readonly validator?: boolean } = {},
): Promise<SandboxRun> {
  const run = await runCommandInSandbox(worktree, command, { ...options, timeoutMs: 180_000 });
  return { exitCode: run.exitCode, output: run.all };
}

/** Asserts `command` exits 0 in the sandbox (output shown if not) and its output matches each pattern. */
export async function assertPassesInSandbox(
  worktree: string,
  command: string,
  ...patterns: RegExp[]
): Promise<SandboxRun> {
  const run = await runInSandbox(worktree, command);
  assert.equal(run.exitCode, 0, run.output);
  for (const pattern of patterns) assert.match(run.output, pattern);
  return run;
}

/** Asserts the sandbox cannot write into `dir` (a shared cache it only reads). */
export async function assertReadOnlyInSandbox(worktree: string, dir: string | undefined): Promise<void> {
  const poison = await runInSandbox(worktree, `touch "${dir}/poison" 2>&1; echo rc=$?`);
  assert.match(poison.output, /rc=1/);
}

/** package.json and one node:test file using is-number, for the node package managers. */
export function nodeTestProject(
  name: string,
  packageManager: string,
  gitignore = 'node_modules/\n',
): Record<string, string> {
  return {
    'package.json': JSON.stringify(
      {
        name,
        version: '1.0.0',
        private: true,
        packageManager,
        scripts: { test: 'node --test' },
        dependencies: { 'is-number': '7.0.0' },
      },
      null,
      2,
    ),
    '.gitignore': gitignore,
    'is-number.test.js':
      "const test = require('node:test');\nconst assert = require('node:assert');\nconst isNumber = require('is-number');\n" +
      "test('is-number', () => assert.ok(isNumber(5)));\n",
  };
}

/** A setuptools pyproject.toml for package `name` with `tables` (TOML lines) after [project]. */
export function setuptoolsPyproject(name: string, ...tables: string[]): string {
  return [
    '[build-system]',
    'requires = ["setuptools>=61"]',
    'build-backend = "setuptools.build_meta"',
    '',
    '[project]',
    `name = "${name}"`,
    'version = "0.1.0"',
    '',
    ...tables,
    '',
  ].join('\n');
}

export interface EnvironmentSuite {
  /** The test file's project (made in `before`). */
  readonly project: Project;
  /** The environment activity itself, for code under test that takes it. */
  readonly prepareEnvironment: EnvironmentActivities['prepareEnvironment'];
  /** The environment phase on `worktreePath` of the project (extra input fields optional). */
  prepare(worktreePath: string, input?: Partial<PrepareEnvironmentInput>): Promise<EnvironmentReport>;
  /** Prepares `worktree` (a fresh one if not given) and asserts every step came from the caches. */
  prepareWarm(worktree?: string): Promise<EnvironmentReport>;
  /** Copies the lockfile setup made in `worktree` into the repository and commits it, as a user would. */
  commitLockfile(worktree: string, name: string): Promise<void>;
}

/**
 * The shared before/after of an environment test file: its own state dir, the project
 * made from `files` (with `lock` run in the repository first, then committed), and
 * everything removed after (`beforeCleanup` first).
 */
export function useEnvironmentProject(
  files: Record<string, string>,
  options: { lock?: (repo: TempGitRepo) => Promise<void>; beforeCleanup?: () => Promise<void> } = {},
): EnvironmentSuite {
  let project: Project | undefined;
  const { prepareEnvironment } = createEnvironmentActivities();
  const current = (): Project => {
    assert.ok(project, 'the project is made in before()');
    return project;
  };
  before(async () => {
    await useTempStateDir();
    project = await makeProject(files, options.lock);
  });
  after(async () => {
    await options.beforeCleanup?.();
    await project?.cleanup();
    await removeTempStateDir();
  });
  const prepare = (worktreePath: string, input: Partial<PrepareEnvironmentInput> = {}): Promise<EnvironmentReport> =>
    prepareEnvironment({ ...input, worktreePath, repoPath: current().repo.dir });
  return {
    get project() {
      return current();
    },
    prepareEnvironment,
    prepare,
    async prepareWarm(worktree) {
      const warm = await prepare(worktree ?? (await current().worktree()));
      assert.equal(warm.cached, true, JSON.stringify(warm.steps));
      return warm;
    },
    async commitLockfile(worktree, name) {
      const { repo } = current();
      await copyFile(path.join(worktree, name), path.join(repo.dir, name));
      await repo.git('add', name);
      await repo.git('commit', '--quiet', '-m', 'lockfile');
    },
  };
}
