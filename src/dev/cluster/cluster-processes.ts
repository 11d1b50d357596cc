/**
 * The cluster's long-running processes (the Temporal server, the Web UI server) as
 * detached background processes that outlive `npm run cluster -- up`: each has
 * `<state>/<name>.pid` and `<state>/<name>.log`. A pid file counts only while that pid is
 * alive AND still runs the same binary (pids are reused), so a stale file after a reboot
 * or a crash reads as "stopped".
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const ClusterProcess = { Server: 'temporal-server', Ui: 'temporal-ui' } as const;
export type ClusterProcess = (typeof ClusterProcess)[keyof typeof ClusterProcess];

export const pidFile = (stateDir: string, name: ClusterProcess): string => join(stateDir, `${name}.pid`);
export const logFile = (stateDir: string, name: ClusterProcess): string => join(stateDir, `${name}.log`);

interface PidRecord {
  readonly pid: number;
  readonly binary: string;
}

function readPid(stateDir: string, name: ClusterProcess): PidRecord | undefined {
  const file = pidFile(stateDir, name);
  if (!existsSync(file)) return undefined;
  const [pid, binary] = readFileSync(file, 'utf8').split('\n');
  return { pid: Number(pid), binary: binary ?? '' };
}

function commandLineOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return undefined;
  }
}

/** The pid of the running process, or undefined when it is not running. */
export function runningPid(stateDir: string, name: ClusterProcess): number | undefined {
  const record = readPid(stateDir, name);
  if (record === undefined || !Number.isInteger(record.pid) || record.pid <= 0) return undefined;
  const cmdline = commandLineOf(record.pid);
  if (cmdline === undefined || !cmdline.startsWith(record.binary)) return undefined;
  // A zombie (killed, not yet reaped by its parent) has an empty command line: caught above.
  return record.pid;
}

export function startDetached(
  stateDir: string,
  name: ClusterProcess,
  binary: string,
  args: readonly string[],
  env: Record<string, string>,
  cwd: string,
): number {
  mkdirSync(stateDir, { recursive: true });
  const out = openSync(logFile(stateDir, name), 'a');
  const child = spawn(binary, args, {
    cwd,
    detached: true,
    stdio: ['ignore', out, out],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/', ...env },
  });
  closeSync(out);
  child.unref();
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${name} did not start`);
  writeFileSync(pidFile(stateDir, name), `${pid}\n${binary}\n`);
  return pid;
}

/** SIGTERM, then SIGKILL after `graceMs`; removes the pid file. True when it was running. */
export async function stopProcess(stateDir: string, name: ClusterProcess, graceMs = 15_000): Promise<boolean> {
  const pid = runningPid(stateDir, name);
  rmSync(pidFile(stateDir, name), { force: true });
  if (pid === undefined) return false;
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (commandLineOf(pid) && Date.now() < deadline) await sleep(200);
  if (commandLineOf(pid)) process.kill(pid, 'SIGKILL');
  return true;
}

/** The last lines of a process's log, to show why it did not come up. */
export function logTail(stateDir: string, name: ClusterProcess, lines = 20): string {
  const file = logFile(stateDir, name);
  if (!existsSync(file)) return '(no log)';
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}
