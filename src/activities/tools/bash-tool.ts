/**
 * The `bash` tool (Claude-defined `bash_20250124`), run in the worktree's sandbox
 * (sandbox-launch: namespaces, private HOME, no credentials, no network by default).
 *
 * Stateless by design: every command is a fresh `bash -c` in the worktree, so `cd`,
 * exported variables or background jobs do not carry over between calls. That keeps a
 * resumed step (after a crash) equivalent to the original one, which a persistent
 * shell session could not be. `restart: true` is therefore a no-op with a note.
 *
 * Every command runs in its own process group, which is ended (SIGTERM, then SIGKILL
 * after a grace period) on timeout or cancellation and killed when the command returns,
 * so nothing it started outlives it; inside a PID namespace even `setsid` children die
 * with it (the namespace's init is the command). The process is started by the spawner
 * helper (process/spawner), so its fork never blocks the worker's event loop.
 */
import { sharedSpawner } from '../process/spawner/process-spawner.js';
import { checkReadOnly } from './bash-policy.js';
import { truncateToolOutput } from './output-truncation.js';
import { enforcesFilesystem } from './process-isolation.js';
import { sandboxCommand } from './sandbox-launch.js';
import type { ToolContext, ToolResult } from './tool-types.js';

export interface BashInput {
  readonly command?: unknown;
  readonly restart?: unknown;
}

const RESTART_NOTE =
  'Shell restarted. Note: each command already runs in a fresh shell in the worktree; cd and variables do not persist between calls.';

const KILL_GRACE_MS = 2_000;
/** Output kept of one command (both streams interleaved); beyond it the command is stopped. */
const MAX_OUTPUT_CHARS = 50_000_000;

export async function runBash(input: BashInput, ctx: ToolContext, label = 'bash-output'): Promise<ToolResult> {
  if (input.restart === true) return { content: RESTART_NOTE, isError: false };
  if (typeof input.command !== 'string' || input.command.trim() === '') {
    return { content: 'Error: the bash tool needs a non-empty "command" string.', isError: true };
  }
  const command = input.command;
  ctx.signal.throwIfAborted();
  const sandbox = await sandboxCommand({
    dir: ctx.worktreePath,
    command,
    readOnly: ctx.readOnly,
    ...(ctx.extraEnv ? { extraEnv: ctx.extraEnv } : {}),
    warn: (m) => ctx.log('warn', m),
  });
  if (ctx.readOnly && !enforcesFilesystem(sandbox.isolation)) {
    const verdict = checkReadOnly(command);
    if (!verdict.allowed) {
      ctx.log('info', 'bash command refused', { command: command.slice(0, 200) });
      return { content: verdict.reason ?? 'Refused.', isError: true };
    }
  }

  const result = await sharedSpawner().run({
    file: sandbox.file,
    args: sandbox.args,
    cwd: ctx.worktreePath,
    env: sandbox.env,
    all: true,
    maxChars: MAX_OUTPUT_CHARS,
    killOnOverflow: true,
    // Own process group, so a timeout or cancel ends grandchildren too, and nothing outlives the command.
    group: true,
    killGroupAfterExit: true,
    timeoutMs: ctx.limits.bashTimeoutMs,
    killGraceMs: KILL_GRACE_MS,
    signal: ctx.signal,
  });
  const timedOut = result.timedOut;
  // Cancellation wins over whatever the command printed: the activity must stop.
  ctx.signal.throwIfAborted();

  // Control characters (NULs from binary output) only waste the model's context.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  const raw = (result.all ?? '').replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g, '?');
  const view = await truncateToolOutput(raw, ctx.limits.maxOutputChars, ctx.store, label);
  const notes: string[] = [];
  if (timedOut) notes.push(`[command timed out after ${Math.round(ctx.limits.bashTimeoutMs / 1000)} s and was killed]`);
  if (result.truncated) notes.push('[output exceeded 50 MB; the command was stopped and the rest dropped]');
  if (!timedOut && typeof result.exitCode === 'number' && result.exitCode !== 0)
    notes.push(`[exit code ${result.exitCode}]`);
  else if (result.signal && !timedOut) notes.push(`[killed by ${result.signal}]`);
  const body = view.text.length > 0 ? view.text : '(no output)';
  const separator = body.endsWith('\n') ? '' : '\n';
  return { content: notes.length > 0 ? `${body}${separator}${notes.join('\n')}` : body, isError: timedOut };
}
