/**
 * The one git runner of the harness. Every git process the worker starts (worktree
 * add/remove, config, merge, push, status) goes through here, because the repository
 * is not ours: an agent (or anyone) may have planted hooks, `core.fsmonitor` or
 * `core.hooksPath`, and git would run that code with whatever environment we give it.
 *
 * So each call gets:
 * - an environment built from scratch (harnessGitEnv): no model, GitHub or Temporal
 *   credentials or addresses, no inherited GIT_* variable (GIT_DIR, GIT_SSH_COMMAND,
 *   GIT_CONFIG_* ... could redirect or reconfigure git);
 * - `-c` overrides (HARNESS_GIT_CONFIG) that switch off the config keys that run code
 *   on ordinary commands: hooks, fsmonitor, the `ext::` transport.
 * Other code-running keys (filter/diff/merge drivers, sshCommand, include.path) cannot
 * all be pinned by name; the repository config they would live in is kept read-only for
 * the agent where namespaces allow and restored after every step (git-state-guard).
 *
 * Arguments are an array (never a shell string), the locale is pinned (output is
 * parsed) and prompts are disabled so a missing credential fails instead of hanging.
 *
 * The processes are started by the spawner helper (process/spawner), not by the worker
 * itself: a fork of the big worker process blocks its event loop (see there). Layout
 * queries (`rev-parse --git-common-dir` …) are memoised (git-layout-cache).
 */
import { AgentError } from '../../../contracts/errors.js';
import type { FailureType } from '../../../contracts/failures.js';
import { sharedSpawner } from '../../process/spawner/process-spawner.js';
import { createGitLayoutCache, isLayoutQuery } from './git-layout-cache.js';
import { harnessGitEnv } from './harness-git-env.js';
import { shellQuote } from '../../process/shell-quote.js';
import { agentWorktreeOf, runSandboxedGit } from './sandboxed-git.js';

export { harnessGitEnv } from './harness-git-env.js';

export interface GitResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface GitOptions {
  /**
   * Variables added to the harness environment for this call (e.g. the push's auth
   * header as GIT_CONFIG_COUNT/KEY_n/VALUE_n). Only GIT_CONFIG_* and non-GIT names pass.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * GIT_INDEX_FILE for this call: only the worktree checkpoints use it (a temporary
   * index in a temp dir). Hooks and fsmonitor stay disabled as for every call.
   */
  readonly temporaryIndexFile?: string;
  /** Written to git's stdin (e.g. `update-ref --stdin`); without it stdin is /dev/null. */
  readonly input?: string;
}

/**
 * `-c` settings put before every subcommand. `core.hooksPath=/dev/null`: no file can
 * ever exist under /dev/null, so no hook is found (an empty directory could be filled
 * by anyone who can write to it). Submodules are never recursed into: a nested
 * repository's own config (filters, fsmonitor) is whoever wrote it, and `git status`
 * would run it. `diff.ignoreSubmodules` is only a default (a `.gitmodules` entry's
 * `ignore` beats it), so calls that compare trees also pass `--ignore-submodules=all`;
 * and in an agent's worktree the call runs in the agent's sandbox anyway (sandboxed-git).
 */
export const HARNESS_GIT_CONFIG: readonly string[] = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'protocol.ext.allow=never',
  '-c',
  'submodule.recurse=false',
  '-c',
  'diff.ignoreSubmodules=all',
  '-c',
  'status.submoduleSummary=false',
  '-c',
  'fetch.recurseSubmodules=false',
  '-c',
  'core.untrackedCache=false',
];

/** The argv (after `git`) for a harness git call: the overrides, then the subcommand. */
export function harnessGitArgs(args: readonly string[]): string[] {
  return [...HARNESS_GIT_CONFIG, ...args];
}

const layoutCache = createGitLayoutCache();

/**
 * Runs git in `cwd`; never throws for a non-zero exit (a git that cannot be started, or a
 * missing `cwd`, becomes exit 128). Throws a retryable AgentError only when the spawner
 * helper itself died: then nothing is known about the call.
 */
export async function git(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  const run = (): Promise<GitResult> => runGit(cwd, args, options);
  return isLayoutQuery(args) && options.temporaryIndexFile === undefined && options.env === undefined
    ? layoutCache.answer(cwd, args, run)
    : run();
}

async function runGit(cwd: string, args: readonly string[], options: GitOptions): Promise<GitResult> {
  // In an agent's worktree (anything but a layout query): in the agent's sandbox.
  return runHarnessCommand(cwd, ['git', ...harnessGitArgs(args)], options, !isLayoutQuery(args));
}

/**
 * A bash script run as one harness git call is (the same environment, in an agent's
 * worktree the same sandbox): for several git commands that feed each other, one process
 * and one sandbox launch (~50 ms each) instead of one per command. In the script, `git`
 * is a function that puts the harness overrides (HARNESS_GIT_CONFIG) before every
 * subcommand; `args` are its `$1`, `$2`, …
 */
export async function gitScript(
  cwd: string,
  script: string,
  args: readonly string[],
  options: GitOptions = {},
): Promise<GitResult> {
  const withOverrides = `git() { command git ${HARNESS_GIT_CONFIG.map(shellQuote).join(' ')} "$@"; }\n${script}`;
  return runHarnessCommand(cwd, ['bash', '-c', withOverrides, 'git-script', ...args], options, true);
}

async function runHarnessCommand(
  cwd: string,
  [file, ...args]: readonly [string, ...string[]],
  options: GitOptions,
  sandboxable: boolean,
): Promise<GitResult> {
  const env = harnessGitEnv(
    process.env,
    options.env,
    options.temporaryIndexFile === undefined ? {} : { temporaryIndexFile: options.temporaryIndexFile },
  );
  const worktree = sandboxable ? agentWorktreeOf(cwd) : undefined;
  try {
    const input = options.input === undefined ? {} : { input: options.input };
    const result =
      worktree === undefined
        ? await sharedSpawner().run({ file, args, cwd, env, ...input })
        : await runSandboxedGit({ worktree, cwd, command: [file, ...args], env, ...input });
    return {
      exitCode: result.exitCode ?? 128,
      stdout: stripFinalNewline(result.stdout),
      stderr: stripFinalNewline(result.stderr) || (result.signal === null ? '' : `git was killed by ${result.signal}`),
    };
  } catch (err) {
    if (AgentError.isInstance(err)) throw err;
    return { exitCode: 128, stdout: '', stderr: `git could not be started in ${cwd}: ${(err as Error).message}` };
  }
}

/** As the output of a command substitution: one trailing newline is not part of the answer. */
function stripFinalNewline(text: string): string {
  if (text.endsWith('\r\n')) return text.slice(0, -2);
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

/** Runs git and returns trimmed stdout; a non-zero exit becomes an AgentError with git's own message. */
export async function gitOrThrow(
  cwd: string,
  args: readonly string[],
  code: FailureType,
  options: GitOptions = {},
): Promise<string> {
  const result = await git(cwd, args, options);
  if (result.exitCode !== 0) {
    throw new AgentError(code, `git ${args.join(' ')} failed in ${cwd}: ${firstLine(result.stderr || result.stdout)}`, {
      where: cwd,
      details: { exitCode: result.exitCode },
    });
  }
  return result.stdout.trim();
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}
