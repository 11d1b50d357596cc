/**
 * Which tests fail on the base commit, for one test command: run once per (repository,
 * commit, command) in a detached temporary worktree of the base, in the same sandbox
 * as every validator, then cached.
 *
 * The cache lives in the harness state directory (next to the git-state snapshots),
 * not in the repository's git dir: the agent's commands may write the git dir, and a
 * forged cache entry would excuse any failure as "pre-existing".
 */
import { createHash, randomUUID } from 'node:crypto';
import { link, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CommandRunner } from '../../process/command-runner.js';
import { git } from '../../workspace/git/git.js';
import { withRepoLock } from '../../workspace/git/repo-lock.js';
import { gitDirsOf } from '../../workspace/git/git-state-snapshot.js';
import { ensureAgentHome, removeAgentSandbox, sandboxStateRoot } from '../../workspace/sandbox-state.js';
import { parseTestFailures, testFailures } from '../test-reports/parse-test-failures.js';
import { failingNow } from '../test-reports/failing-now.js';
import { runCollectingReports } from '../test-reports/report-files.js';
import { countTestsRun } from '../test-reports/tests-run.js';
import { notLoadingOf, type Baseline, type NotLoading } from './classify-failures.js';

export interface BaselineRequest {
  readonly worktreePath: string;
  readonly commit: string;
  readonly command: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

export function baselineCacheDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return path.join(path.dirname(sandboxStateRoot(env)), 'baseline');
}

/** The base's failures, from the cache or by running the command; undefined when the base cannot be run. */
export async function baselineFailures(
  commands: CommandRunner,
  request: BaselineRequest,
): Promise<Baseline | undefined> {
  const file = await cacheFileFor(request.worktreePath, request.commit, request.command);
  if (file === undefined) return undefined;
  const cached = await readCached(file, request);
  if (cached !== undefined) return cached;
  const measured = await runOnBase(commands, request);
  if (measured === undefined) return undefined;
  await writeCached(file, measured);
  return measured;
}

/** The base's failures when already measured (by the preflight, or an earlier judgement); never runs the base. */
export async function cachedBaseline(
  worktreePath: string,
  commit: string,
  command: string,
): Promise<Baseline | undefined> {
  const file = await cacheFileFor(worktreePath, commit, command);
  return file === undefined ? undefined : readCached(file, { worktreePath, commit, command, timeoutMs: 0 });
}

/**
 * Records the base's failures measured elsewhere: the preflight runs each test command in
 * the run's own prepared worktree while it is still at the base commit, where the run's
 * environment (installed dependencies, its virtualenv) is; a detached worktree has none.
 * Never over an earlier measure: a worktree's first preflight runs before any agent step,
 * a later one (a revived run, a new run of the issue in the same worktree) may measure
 * files the agent added with HEAD still at the base, which would excuse its regressions.
 */
export async function recordBaseline(worktreePath: string, baseline: Baseline): Promise<void> {
  const file = await cacheFileFor(worktreePath, baseline.commit, baseline.command);
  if (file !== undefined) await writeCached(file, baseline, { once: true });
}

async function cacheFileFor(worktreePath: string, commit: string, command: string): Promise<string | undefined> {
  const common = await git(worktreePath, ['rev-parse', '--path-format=absolute', '--git-common-dir']);
  if (common.exitCode !== 0) return undefined;
  // v2: a base that exits 0 naming failing tests records them (failing-now.ts); earlier entries did not.
  const key = createHash('sha256').update(`v2\0${common.stdout.trim()}\0${commit}\0${command}`).digest('hex');
  return path.join(baselineCacheDir(), `${key}.json`);
}

/** `once`: a link, which fails when the entry exists (the first measure stays), else a rename over it. */
async function writeCached(file: string, baseline: Baseline, options: { once?: boolean } = {}): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const partial = `${file}.${randomUUID()}.tmp`;
  await writeFile(partial, JSON.stringify(baseline), { mode: 0o600 });
  if (options.once !== true) return rename(partial, file);
  await link(partial, file).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  await rm(partial, { force: true });
}

async function readCached(file: string, request: BaselineRequest): Promise<Baseline | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<Baseline>;
    if (parsed.commit !== request.commit || parsed.command !== request.command) return undefined;
    if (!Array.isArray(parsed.failedTests)) return undefined;
    return {
      commit: parsed.commit,
      command: parsed.command,
      exitCode: typeof parsed.exitCode === 'number' ? parsed.exitCode : null,
      failedTests: parsed.failedTests.filter((n): n is string => typeof n === 'string'),
      ...(Array.isArray(parsed.notLoading) ? { notLoading: parsed.notLoading.filter(isNotLoading) } : {}),
      ...(typeof parsed.testsRun === 'number' && parsed.testsRun >= 0 ? { testsRun: parsed.testsRun } : {}),
    };
  } catch {
    return undefined;
  }
}

function isNotLoading(value: unknown): value is NotLoading {
  if (typeof value !== 'object' || value === null) return false;
  const { name, file } = value as Partial<Record<keyof NotLoading, unknown>>;
  return typeof name === 'string' && (file === undefined || typeof file === 'string');
}

async function runOnBase(commands: CommandRunner, request: BaselineRequest): Promise<Baseline | undefined> {
  // In the worktree's private HOME: where the repository is the agent's own, its git runs
  // in the agent's sandbox, which sees that HOME (and not the worker's temp dir).
  const home = await ensureAgentHome(request.worktreePath);
  const dir = path.join(home, `issue-agent-baseline-${randomUUID().slice(0, 12)}`);
  // Added from the repository's git dir (the user's, read-only to the agent), not from the
  // worktree. The worktree list is shared repository state: changed under the repository lock.
  const { commonDir: repo } = await gitDirsOf(request.worktreePath);
  const added = await withRepoLock(request.worktreePath, () =>
    git(repo, ['worktree', 'add', '--detach', '--quiet', dir, request.commit]),
  );
  if (added.exitCode !== 0) return undefined;
  try {
    // With the same test reports as the validator run, so both name tests alike (pytest node ids).
    const { outcome, reports } = await runCollectingReports(commands, {
      command: request.command,
      cwd: dir,
      timeoutMs: request.timeoutMs,
      ...(request.signal ? { signal: request.signal } : {}),
    });
    // A base that timed out or could not start says nothing about which tests fail.
    if (outcome.kind !== 'exited') return undefined;
    const output = `${outcome.stdout}\n${outcome.stderr}`;
    // Named failures count on an exit 0 too: the branch's run is judged the same way (failing-now.ts).
    const failed = failingNow(parseTestFailures(output, reports), { exitCode: outcome.exitCode, output, reports });
    const testsRun = countTestsRun(output, reports);
    return {
      commit: request.commit,
      command: request.command,
      exitCode: outcome.exitCode ?? null,
      failedTests: [...new Set(testFailures(failed).map((t) => t.name))],
      notLoading: notLoadingOf(failed),
      ...(testsRun === undefined ? {} : { testsRun }),
    };
  } finally {
    await withRepoLock(request.worktreePath, async () => {
      await git(repo, ['worktree', 'remove', '--force', dir]);
      await rm(dir, { recursive: true, force: true });
      await git(repo, ['worktree', 'prune']);
    });
    await removeAgentSandbox(dir).catch(() => undefined);
  }
}
