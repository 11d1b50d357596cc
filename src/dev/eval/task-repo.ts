/**
 * An eval task's repository: prepared in a fresh temp directory (a directory is copied
 * and made a git repository when it is not one; a git URL or path is cloned), checked
 * out at the task's commit, with the issue as local issue #1. After the run, the hidden
 * checks run in a detached worktree of the delivered commit, with the hidden files
 * written only there: the agent never sees them.
 */
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { appendFile, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { FailureType } from '../../contracts/failures.js';
import { gitOrThrow } from '../../activities/workspace/git/git.js';
import { writeLocalIssue } from '../../activities/issues/local-issue-store.js';
import type { EvalTask } from './task-file.js';

export const EVAL_ISSUE = 1;
const IDENTITY = ['-c', 'user.name=Eval', '-c', 'user.email=eval@example.invalid', '-c', 'commit.gpgsign=false'];
const git = (cwd: string, args: readonly string[]): Promise<string> => gitOrThrow(cwd, args, FailureType.RepoNotFound);

export async function prepareTaskRepo(task: EvalTask): Promise<string> {
  const repoPath = await mkdtemp(join(tmpdir(), `issue-agent-eval-${task.id}-`));
  const isDir = existsSync(task.repo) && statSync(task.repo).isDirectory();
  if (isDir && !existsSync(join(task.repo, '.git'))) {
    await cp(task.repo, repoPath, { recursive: true });
    await git(repoPath, ['init', '-q', '-b', 'main']);
    await git(repoPath, ['add', '-A']);
    await git(repoPath, [...IDENTITY, 'commit', '-q', '-m', `Task ${task.id}`]);
  } else {
    await git(tmpdir(), ['clone', '-q', task.repo, repoPath]);
  }
  if (task.commit !== undefined) await git(repoPath, ['checkout', '-q', '-B', 'main', task.commit]);
  else await git(repoPath, ['checkout', '-q', '-B', 'main']);
  await appendFile(join(repoPath, '.git', 'info', 'exclude'), '\n.agent/\n');
  await writeLocalIssue(repoPath, { number: EVAL_ISSUE, title: task.issue.title, body: task.issue.body });
  return repoPath;
}

export interface CheckResult {
  readonly command: string;
  readonly exitCode: number;
  readonly output: string;
  /** A SWE-bench task's check: its FAIL_TO_PASS / PASS_TO_PASS tests that did not pass. */
  readonly failing?: readonly string[];
}

/** The only variables the hidden checks see: no key or token can reach them. */
function checkEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const keep = [
    'PATH',
    'HOME',
    'LANG',
    'TMPDIR',
    'GOPATH',
    'GOCACHE',
    'GOMODCACHE',
    'GOFLAGS',
    'PYENV_ROOT',
    'PYENV_VERSION',
  ];
  return Object.fromEntries(keep.filter((k) => env[k] !== undefined).map((k) => [k, env[k]]));
}

/** Runs the hidden checks against `ref` (the delivered commit), with checkEnv's variables only; all must exit 0. */
export async function runHiddenChecks(
  repoPath: string,
  ref: string,
  task: EvalTask,
  env: NodeJS.ProcessEnv,
): Promise<readonly CheckResult[]> {
  const tree = await mkdtemp(join(tmpdir(), `issue-agent-eval-check-${task.id}-`));
  await git(repoPath, ['worktree', 'add', '-q', '--detach', tree, ref]);
  try {
    for (const [path, text] of Object.entries(task.hiddenFiles)) {
      await mkdir(dirname(join(tree, path)), { recursive: true });
      await writeFile(join(tree, path), text);
    }
    const results: CheckResult[] = [];
    for (const command of task.checks) {
      try {
        const { stdout, stderr } = await promisify(execFile)('bash', ['-c', command], {
          cwd: tree,
          env: checkEnv(env),
          timeout: 300_000,
          maxBuffer: 16 * 1024 * 1024,
        });
        results.push({ command, exitCode: 0, output: `${stdout}${stderr}`.slice(-4000) });
      } catch (err) {
        const e = err as { code?: unknown; stdout?: string; stderr?: string; message: string };
        const exitCode = typeof e.code === 'number' ? e.code : 1;
        results.push({ command, exitCode, output: `${e.stdout ?? ''}${e.stderr ?? e.message}`.slice(-4000) });
      }
    }
    return results;
  } finally {
    await git(repoPath, ['worktree', 'remove', '--force', tree]).catch(() =>
      rm(tree, { recursive: true, force: true }),
    );
  }
}
