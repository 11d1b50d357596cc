/**
 * What runs in front of an agent-controlled command, after the sandbox's own mounts and
 * the drop to the sandbox user: Landlock's network rules for a command held to some ports
 * (a networked setup: landlock-net.ts, setup-connect-ports.ts), then the seccomp filter
 * (seccomp-exec.ts). Each is a perl program that installs its part and execs the next
 * word, so the command and every child run under both; where one does not work on this
 * machine the worker has said so once, and the command runs without it.
 */
import { shellQuote } from '../process/shell-quote.js';
import { landlockNetArgv } from './landlock-net.js';
import type { Isolation } from './process-isolation.js';
import { seccompArchOf } from './seccomp-filter.js';

/** The words in front of the command: its ports (Landlock, where it works here), then the seccomp filter. */
export function installers(isolation: Isolation, connectPorts: readonly number[] | undefined): string[] {
  const landlock =
    connectPorts === undefined || isolation.landlockNet !== true
      ? undefined
      : landlockNetArgv(seccompArchOf(), connectPorts);
  return [...(landlock ?? []), ...(isolation.seccomp ?? [])];
}

/**
 * The command line the prelude runs last (as the sandbox user, after every mount of its
 * own): through the installers, which then exec `bash -c <command>`.
 */
export function filteredCommand(words: readonly string[], command: string): string {
  if (words.length === 0) return command;
  return `exec ${[...words, 'bash', '-c', command].map(shellQuote).join(' ')}`;
}
