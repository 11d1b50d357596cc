/**
 * Runs one command the way sandbox-launch starts it (the agent's bash tool by default, a
 * validator with `validator: true`) and returns what it printed and how it exited.
 */
import { execa } from 'execa';
import { sandboxCommand, type SandboxRequest } from '../../src/activities/tools/sandbox-launch.js';

export interface SandboxRun {
  readonly exitCode: number;
  readonly stdout: string;
  readonly all: string;
}

export type SandboxRunOptions = Omit<SandboxRequest, 'dir' | 'command' | 'readOnly'> & { readonly timeoutMs?: number };

export async function runInSandbox(dir: string, command: string, options: SandboxRunOptions = {}): Promise<SandboxRun> {
  const { timeoutMs, ...request } = options;
  const sandbox = await sandboxCommand({ dir, command, readOnly: false, ...request });
  const result = await execa(sandbox.file, sandbox.args, {
    env: sandbox.env,
    extendEnv: false,
    cwd: dir,
    reject: false,
    all: true,
    ...(timeoutMs === undefined ? {} : { timeout: timeoutMs }),
  });
  return { exitCode: result.exitCode ?? -1, stdout: result.stdout, all: result.all ?? '' };
}
