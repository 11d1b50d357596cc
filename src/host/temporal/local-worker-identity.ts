/**
 * Worker identities on this host. The SDK names a worker `<pid>@<host>`; a worker that
 * died (SIGKILL, OOM, a closed terminal) keeps counting as a poller of its task queue for
 * about a minute, and keeps its running activity "started" until the heartbeat times out.
 * On the same host the CLI can see at once that such a process is gone.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** The pid of a worker identity `<pid>@<host>` on `host`; undefined for anything else. */
export function localPidOf(identity: string | null | undefined, host: string): number | undefined {
  const match = /^(\d+)@(.+)$/.exec(identity ?? '');
  if (match === null || match[2] !== host) return undefined;
  const pid = Number(match[1]);
  return Number.isSafeInteger(pid) && pid > 1 ? pid : undefined;
}

/** Whether a process exists and is not a zombie (a killed child its parent has not reaped yet). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/** True when `identity` names a process of this host that no longer exists. */
export function isGoneLocalWorker(identity: string | null | undefined, host: string = hostname()): boolean {
  const pid = localPidOf(identity, host);
  return pid !== undefined && !processAlive(pid);
}
