/**
 * How the CLI reports a failure: a one-line reason for errors we raise on purpose
 * (usage errors exit 2), never a bare stack trace; unexpected errors print their
 * message with the chain of causes (the SDK wraps the server's reason: a bare
 * `Failed to start Workflow` says nothing, its cause says which attribute or
 * permission is missing) and a hint to set DEBUG for the stack. An error quotes what
 * failed (a run's reason, a model's answer, a file of the repository): every line goes
 * through printLine, so none of it drives the operator's terminal.
 */
import { AgentError } from '../contracts/errors.js';
import { printLine } from './terminal-text.js';

/**
 * Codes that mean the user's input was wrong (a flag, a config file, a repository path
 * that is not one): exit 2, as README's exit codes say; anything else exits 1.
 */
const INPUT_ERROR_CODES: ReadonlySet<string> = new Set(['USAGE', 'CONFIG_INVALID', 'REPO_NOT_FOUND']);

export function reportFatal(err: unknown): number {
  if (AgentError.isInstance(err)) {
    printLine(process.stderr, `error: ${err.code === 'USAGE' ? err.message : err.describe()}`);
    const problems = (err as { problems?: unknown }).problems;
    // The first problem is already in the line above: list them all only when there are more.
    if (Array.isArray(problems) && problems.length > 1) {
      const format = (err as { format?: () => string }).format;
      if (typeof format === 'function') printLine(process.stderr, format.call(err));
    }
    return INPUT_ERROR_CODES.has(err.code) ? 2 : 1;
  }
  printLine(process.stderr, `error: ${describeWithCauses(err)}`);
  if (process.env.DEBUG && err instanceof Error && err.stack) printLine(process.stderr, err.stack);
  return 1;
}

const MAX_CAUSES = 6;

/** The first line of a message, or a gRPC error's detail when its message is only the status. */
function reasonOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const first = err.message.split('\n')[0] ?? '';
  const details = (err as { details?: unknown }).details;
  if (first === '' && typeof details === 'string') return details;
  return first;
}

/**
 * `outer: cause: its cause`, skipping a cause whose text the line already holds (gRPC
 * errors repeat their detail) and stopping at cycles. Server failures (Temporal's
 * ApplicationFailure and friends) carry their cause the same way.
 */
export function describeWithCauses(err: unknown): string {
  const parts: string[] = [];
  const seen = new Set<unknown>();
  let current: unknown = err;
  while (current !== undefined && current !== null && !seen.has(current) && parts.length < MAX_CAUSES) {
    seen.add(current);
    const reason = reasonOf(current).trim();
    if (reason !== '' && !parts.some((p) => p.includes(reason))) parts.push(reason);
    current = current instanceof Error ? (current as { cause?: unknown }).cause : undefined;
  }
  return parts.join(': ') || String(err);
}
