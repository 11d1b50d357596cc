/**
 * Runs git with an argument array (never a shell string: branch names and paths may
 * come from issue numbers and configuration). Output is parsed by our code, so the
 * locale is pinned; prompts are disabled so a missing credential fails instead of
 * hanging a worker.
 */
import { execa } from 'execa';
import { AgentError } from '../../../contracts/errors.js';
import type { FailureType } from '../../../contracts/failures.js';

export interface GitResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

const GIT_ENV = { LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' } as const;

/** Runs git in `cwd`; never throws for a non-zero exit (spawn failures become exit 128). */
export async function git(cwd: string, args: readonly string[]): Promise<GitResult> {
  const result = await execa('git', [...args], { cwd, env: GIT_ENV, reject: false, stdin: 'ignore' });
  if (typeof result.exitCode !== 'number') {
    return { exitCode: 128, stdout: '', stderr: result.shortMessage ?? 'git could not be started' };
  }
  return { exitCode: result.exitCode, stdout: String(result.stdout ?? ''), stderr: String(result.stderr ?? '') };
}

/** Runs git and returns trimmed stdout; a non-zero exit becomes an AgentError with git's own message. */
export async function gitOrThrow(cwd: string, args: readonly string[], code: FailureType): Promise<string> {
  const result = await git(cwd, args);
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
