/**
 * Harness git inside an agent's worktree runs in the agent's own sandbox.
 *
 * Everything under an agent worktree is the agent's to write: `.gitattributes`, nested
 * repositories with their own `.git/config` (a gitlink that `git status` recurses into,
 * running that repository's filter drivers), `info/attributes`, the index. Git has
 * more code-running knobs than the harness can pin by name, so a harness git process
 * that reads such a tree is started exactly like the agent's own commands
 * (sandbox-launch): no credential in its environment, no network, its own PID
 * namespace, the worker's home hidden. Whatever git is tricked into running there
 * reaches nothing the agent could not reach already.
 *
 * A worktree is an agent's when the harness made it a private HOME (sandbox-state):
 * the agent cannot create one (the state dir is hidden from it). Layout queries
 * (`rev-parse --path-format=absolute --git-common-dir`) only read pointer files and stay
 * on the host: the sandbox itself needs their answer.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { shellQuote } from '../../process/shell-quote.js';
import { sharedSpawner } from '../../process/spawner/process-spawner.js';
import { sandboxCommand } from '../../tools/sandbox-launch.js';
import { agentHomePath } from '../sandbox-state.js';

export interface SandboxedGitRequest {
  readonly worktree: string;
  readonly cwd: string;
  /** The whole command line: `git` and its argv (overrides included), or `bash -c` a git script. */
  readonly command: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly input?: string;
}

export interface SandboxedGitResult {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly signal: string | null;
}

/**
 * The agent worktree `cwd` lies in: the nearest ancestor that is a git work tree root (has a
 * `.git` entry) and has an agent HOME. Only work tree roots count: a command once run in a
 * plain directory such as /tmp has a HOME too, and must not capture every repository under it.
 * Nested repositories are walked past, so a cwd inside one still finds the worktree around it.
 */
export function agentWorktreeOf(cwd: string): string | undefined {
  let dir = path.resolve(cwd);
  for (;;) {
    if (existsSync(path.join(dir, '.git')) && existsSync(agentHomePath(dir))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Variables of the harness's git environment that make sense inside the sandbox:
 * locale, prompts, pager, optional locks, a temporary index, the commit identity. Credentials (the push's
 * GIT_CONFIG_* header) never cross: nothing that needs one runs in a worktree.
 */
const PASSED =
  /^(LC_ALL|GIT_TERMINAL_PROMPT|GIT_OPTIONAL_LOCKS|GIT_PAGER|GCM_INTERACTIVE|GIT_INDEX_FILE|GIT_(AUTHOR|COMMITTER)_(NAME|EMAIL))$/;

export async function runSandboxedGit(request: SandboxedGitRequest): Promise<SandboxedGitResult> {
  const extraEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.env)) if (PASSED.test(name)) extraEnv[name] = value;
  const command = request.command.map(shellQuote).join(' ');
  // The index file the harness chose (a checkpoint's, beside its marker) must be writable.
  const index = extraEnv['GIT_INDEX_FILE'];
  const sandbox = await sandboxCommand({
    dir: request.worktree,
    command,
    readOnly: false,
    extraEnv,
    harnessGit: true,
    ...(index === undefined ? {} : { harnessWritable: [path.dirname(index)] }),
  });
  const result = await sharedSpawner().run({
    file: sandbox.file,
    args: sandbox.args,
    cwd: request.cwd,
    env: sandbox.env,
    group: true,
    killGroupAfterExit: true,
    ...(request.input === undefined ? {} : { input: request.input }),
  });
  return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr, signal: result.signal };
}
