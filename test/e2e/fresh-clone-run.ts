/**
 * A user's first run on a real project: a repository made from registry packages in a
 * temp dir (its dependencies are fetched by the environment phase, never committed), a
 * planted bug committed on main, a FRESH CLONE of it with nothing installed, a local
 * issue, the offline model server playing a scripted fix, and `start-run` as a process
 * against the real test server (an in-process worker: nobody polls the queue). The
 * harness's validators, not the script, decide whether the fix is good.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import type { RunResult } from '../../src/contracts/run.js';
import { writeLocalIssue } from '../../src/activities/issues/local-issue-store.js';
import { createModelServer } from '../../src/dev/model-server/model-server.js';
import type { SessionScript } from '../../src/dev/model-server/session-script.js';
import { runCli, type CliResult } from '../cli/cli-process.js';
import { makeTempGitRepo, type TempGitRepo } from '../helpers/temp-git-repo.js';
import { serverAddress, testEnv } from '../helpers/temporal-env.js';

export interface FreshCloneRun {
  readonly cli: CliResult;
  /** The `result` event of `--json` (undefined when the command failed before a run). */
  readonly result?: RunResult & { readonly event: string };
  readonly clone: string;
  readonly modelRequests: number;
  readonly byRule: Readonly<Record<string, number>>;
  /** `git diff main..<branch> --stat`-style list of changed paths on the delivered branch. */
  changedOnBranch(): Promise<string[]>;
}

/** The promise, not the path: runs started at once (python-managers.test.ts) share one dir. */
let stateDir: Promise<string> | undefined;
/** The clones this file made: removed with the state dir (they used to pile up in /tmp). */
const clones: string[] = [];

/** One harness state dir per test file: caches are shared by the runs of one file only. */
export function sharedStateDir(): Promise<string> {
  stateDir ??= mkdtemp(join(tmpdir(), 'e2e-state-')).then((dir) => realpath(dir));
  return stateDir;
}

export async function removeStateDir(): Promise<void> {
  if (stateDir !== undefined) await rm(await stateDir, { recursive: true, force: true });
  stateDir = undefined;
  for (const dir of clones.splice(0)) await rm(dir, { recursive: true, force: true });
}

/** The origin repository: `files` committed on main, then `prepare` (e.g. a generated lockfile) committed too. */
export async function makeOrigin(
  files: Record<string, string>,
  prepare?: (repo: TempGitRepo) => Promise<void>,
): Promise<TempGitRepo> {
  const repo = await makeTempGitRepo({ files });
  if (prepare !== undefined) {
    await prepare(repo);
    await repo.git('add', '-A');
    await repo.git('commit', '--quiet', '--allow-empty', '-m', 'lockfile');
  }
  return repo;
}

/**
 * An origin whose lockfile the package manager `tool` (`name@version`, fetched from the
 * registry into a temp dir, never installed globally) wrote with `lockArgs`: what its users
 * commit.
 */
export async function makeOriginLockedBy(
  files: Record<string, string>,
  tool: string,
  lockArgs: readonly string[],
): Promise<TempGitRepo> {
  const tools = await mkdtemp(join(tmpdir(), 'e2e-tool-'));
  try {
    await execa('npm', ['install', '--prefix', tools, '--no-audit', '--no-fund', '--ignore-scripts', tool]);
    const bin = join(tools, 'node_modules', '.bin', tool.replace(/(.)@[^@]*$/, '$1'));
    return await makeOrigin(files, async (repo) => {
      await execa(bin, lockArgs, { cwd: repo.dir });
    });
  } finally {
    await rm(tools, { recursive: true, force: true });
  }
}

export async function runOnFreshClone(options: {
  readonly origin: TempGitRepo;
  readonly issue: { readonly title: string; readonly body: string };
  readonly session: SessionScript;
  readonly extraArgs?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
}): Promise<FreshCloneRun> {
  const env = await testEnv();
  const parent = await realpath(await mkdtemp(join(tmpdir(), 'e2e-clone-')));
  clones.push(parent);
  const clone = join(parent, 'repo');
  await execa('git', ['clone', '--quiet', options.origin.dir, clone]);
  for (const [key, value] of [
    ['user.name', 'E2E User'],
    ['user.email', 'e2e@example.com'],
    ['commit.gpgsign', 'false'],
  ] as const)
    await execa('git', ['config', key, value], { cwd: clone });
  await writeLocalIssue(clone, { number: 1, ...options.issue });
  const model = await createModelServer({ session: options.session });
  try {
    const cli = await runCli(['start-run', '--issue', '1', '--repo', clone, '--json', ...(options.extraArgs ?? [])], {
      env: {
        TEMPORAL_ADDRESS: serverAddress(env),
        TEMPORAL_TASK_QUEUE: `e2e-${randomUUID()}`,
        ANTHROPIC_BASE_URL: model.url,
        ISSUE_AGENT_STATE_DIR: await sharedStateDir(),
        LOG_LEVEL: 'ERROR',
        ...options.env,
      },
      timeoutMs: options.timeoutMs ?? 280_000,
    });
    const resultLine = cli.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as RunResult & { event: string })
      .find((e) => e.event === 'result');
    const stats = model.stats();
    return {
      cli,
      ...(resultLine === undefined ? {} : { result: resultLine }),
      clone,
      modelRequests: stats.requests,
      byRule: stats.byRule,
      async changedOnBranch() {
        const branch = resultLine?.branch ?? 'agent/issue-1';
        const diff = await execa('git', ['diff', '--name-only', `main...${branch}`], { cwd: clone });
        return diff.stdout.split('\n').filter(Boolean).sort();
      },
    };
  } finally {
    await model.close();
  }
}
