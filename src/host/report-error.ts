/**
 * How the CLI reports a failure: a one-line reason for errors we raise on purpose
 * (usage errors exit 2), never a bare stack trace; unexpected errors print their
 * message and a hint to set DEBUG for the stack.
 */
import { AgentError } from '../contracts/errors.js';

export function reportFatal(err: unknown): number {
  if (AgentError.isInstance(err)) {
    process.stderr.write(`error: ${err.code === 'USAGE' ? err.message : err.describe()}\n`);
    const problems = (err as { problems?: unknown }).problems;
    // The first problem is already in the line above: list them all only when there are more.
    if (Array.isArray(problems) && problems.length > 1) {
      const format = (err as { format?: () => string }).format;
      if (typeof format === 'function') process.stderr.write(`${format.call(err)}\n`);
    }
    return err.code === 'USAGE' || err.code === 'CONFIG_INVALID' ? 2 : 1;
  }
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`error: ${message.split('\n')[0]}\n`);
  if (process.env.DEBUG && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
  return 1;
}
