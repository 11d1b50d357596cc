/**
 * The `bash` tool (Claude-defined `bash_20250124`), run in the worktree.
 *
 * Stateless by design: every command is a fresh `bash -c` in the worktree, so `cd`,
 * exported variables or background jobs do not carry over between calls. That keeps a
 * resumed step (after a crash) equivalent to the original one, which a persistent
 * shell session could not be. `restart: true` is therefore a no-op with a note.
 */
import { execa } from 'execa';
import { checkCommand } from './bash-policy.js';
import { truncateToolOutput } from './output-truncation.js';
import { detectIsolation, isolatedBashArgv } from './process-isolation.js';
import { buildSandboxEnv } from './sandbox-env.js';
import type { ToolContext, ToolResult } from './tool-types.js';

export interface BashInput {
  readonly command?: unknown;
  readonly restart?: unknown;
}

const RESTART_NOTE =
  'Shell restarted. Note: each command already runs in a fresh shell in the worktree; cd and variables do not persist between calls.';

/** Kill the whole process group: `bash -c` may have children that hold the pipes open. */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

export async function runBash(input: BashInput, ctx: ToolContext, label = 'bash-output'): Promise<ToolResult> {
  if (input.restart === true) return { content: RESTART_NOTE, isError: false };
  if (typeof input.command !== 'string' || input.command.trim() === '') {
    return { content: 'Error: the bash tool needs a non-empty "command" string.', isError: true };
  }
  const command = input.command;
  const verdict = checkCommand(command, ctx.readOnly);
  if (!verdict.allowed) {
    ctx.log('info', 'bash command refused', { command: command.slice(0, 200) });
    return { content: verdict.reason ?? 'Refused.', isError: true };
  }
  ctx.signal.throwIfAborted();

  const mode = await detectIsolation((m) => ctx.log('warn', m));
  const { file, args } = isolatedBashArgv(mode, command);
  const subprocess = execa(file, args, {
    cwd: ctx.worktreePath,
    env: buildSandboxEnv(ctx.worktreePath, process.env, ctx.extraEnv),
    extendEnv: false,
    stdin: 'ignore',
    all: true,
    reject: false,
    stripFinalNewline: false,
    // Own process group, so a timeout or cancel can kill grandchildren too.
    detached: true,
    timeout: ctx.limits.bashTimeoutMs,
    cancelSignal: ctx.signal,
    forceKillAfterDelay: 2_000,
    maxBuffer: 50_000_000,
  });
  const onAbort = (): void => killGroup(subprocess.pid);
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => killGroup(subprocess.pid), ctx.limits.bashTimeoutMs + 1_000);
  let result;
  try {
    result = await subprocess;
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onAbort);
    killGroup(subprocess.pid);
  }
  // Cancellation wins over whatever the command printed: the activity must stop.
  ctx.signal.throwIfAborted();

  // Control characters (NULs from binary output) only waste the model's context.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  const raw = (typeof result.all === 'string' ? result.all : '').replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g, '?');
  const view = await truncateToolOutput(raw, ctx.limits.maxOutputChars, ctx.store, label);
  const notes: string[] = [];
  if (result.timedOut)
    notes.push(`[command timed out after ${Math.round(ctx.limits.bashTimeoutMs / 1000)} s and was killed]`);
  if (result.isMaxBuffer) notes.push('[output exceeded 50 MB; the rest was dropped]');
  if (typeof result.exitCode === 'number' && result.exitCode !== 0) notes.push(`[exit code ${result.exitCode}]`);
  else if (result.signal && !result.timedOut) notes.push(`[killed by ${result.signal}]`);
  const body = view.text.length > 0 ? view.text : '(no output)';
  const separator = body.endsWith('\n') ? '' : '\n';
  return {
    content: notes.length > 0 ? `${body}${separator}${notes.join('\n')}` : body,
    isError: result.timedOut === true,
  };
}
