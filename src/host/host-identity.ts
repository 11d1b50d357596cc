/**
 * Who a worker is in a fleet: its host id (`--host-id`, ISSUE_AGENT_HOST_ID, default the
 * machine's hostname) names its host task queue (`<task-queue>@<host-id>`), where the
 * activities of the runs whose worktrees it holds are sent; its state dir (`--state-dir`,
 * ISSUE_AGENT_STATE_DIR, default the XDG state dir) holds its clones of remote
 * repositories and their runs' worktrees. Two workers on one machine with two ids and
 * two state dirs are two hosts.
 */
import { hostname } from 'node:os';
import { AgentError } from '../contracts/errors.js';
import { STATE_DIR_ENV } from '../activities/workspace/remote/repo-cache-layout.js';

export { STATE_DIR_ENV, stateDirFromEnv } from '../activities/workspace/remote/repo-cache-layout.js';

export const HOST_ID_ENV = 'ISSUE_AGENT_HOST_ID';

type Env = Readonly<Record<string, string | undefined>>;

/** `ISSUE_AGENT_HOST_ID`, else the hostname. */
export function hostIdFrom(env: Env = process.env): string {
  const id = env[HOST_ID_ENV];
  return id !== undefined && id !== '' ? id : hostname();
}

/** A host id is part of a task queue name: printable, no spaces, not too long. */
export function checkHostId(id: string, where: string): string {
  if (!/^[A-Za-z0-9._:-]{1,100}$/.test(id)) {
    throw new AgentError('CONFIG_INVALID', `${where} must be a host name (letters, digits, . _ : -), got "${id}"`, {
      where,
      expected: 'e.g. worker-1 or build-host.example.com',
    });
  }
  return id;
}

/** Applies `--host-id` / `--state-dir` to this process's environment, where the worker reads them. */
export function applyHostFlags(
  flags: { hostId?: string; stateDir?: string },
  env: NodeJS.ProcessEnv = process.env,
): void {
  if (flags.hostId !== undefined) env[HOST_ID_ENV] = checkHostId(flags.hostId, '--host-id');
  if (flags.stateDir !== undefined) env[STATE_DIR_ENV] = flags.stateDir;
  if (env[HOST_ID_ENV] !== undefined && env[HOST_ID_ENV] !== '') checkHostId(env[HOST_ID_ENV], HOST_ID_ENV);
}
