/**
 * The sandbox's network policy, set by the operator in the worker's environment
 * (`ISSUE_AGENT_SANDBOX_NETWORK`), never by the agent: `none` (default) gives agent
 * commands a private network namespace with loopback only, where the machine allows it;
 * `host` shares the worker's network (package installs work, but so does reaching the
 * Temporal frontend on localhost: only for trusted agents).
 */
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';

export const SandboxNetwork = { None: 'none', Host: 'host' } as const;
export type SandboxNetwork = (typeof SandboxNetwork)[keyof typeof SandboxNetwork];

export const SANDBOX_NETWORK_ENV = 'ISSUE_AGENT_SANDBOX_NETWORK';

export function sandboxNetworkFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): SandboxNetwork {
  const value = env[SANDBOX_NETWORK_ENV]?.trim().toLowerCase();
  return value === SandboxNetwork.Host ? SandboxNetwork.Host : SandboxNetwork.None;
}

/**
 * `ISSUE_AGENT_SANDBOX_ISOLATION=none` turns the namespaces off (environment scrubbing,
 * private HOME, process groups and the git-state guard stay). For platforms where the
 * probe passes but real commands fail, and for tests of the fallback; it weakens the
 * sandbox and the worker logs a warning for it.
 */
export const SANDBOX_ISOLATION_ENV = 'ISSUE_AGENT_SANDBOX_ISOLATION';

export function namespacesDisabled(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  return env[SANDBOX_ISOLATION_ENV]?.trim().toLowerCase() === 'none';
}

/**
 * The host user a root worker's agent commands run as (`ISSUE_AGENT_SANDBOX_UID`, same
 * number for the group): `nobody` (65534) by default, a uid that owns no file, so the
 * agent reads only what is world-readable or bound for it (idmapped-binds.ts). `0`
 * keeps root (without any capability), for filesystems without idmapped mounts; the
 * worker warns about it. A non-root worker's commands run as the worker, in a user
 * namespace, whatever this says.
 */
export const SANDBOX_UID_ENV = 'ISSUE_AGENT_SANDBOX_UID';
export const DEFAULT_SANDBOX_UID = 65534;

export function sandboxUidFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const raw = env[SANDBOX_UID_ENV]?.trim();
  if (raw === undefined || raw === '') return DEFAULT_SANDBOX_UID;
  if (!/^\d{1,10}$/.test(raw) || Number(raw) > 4294967294) {
    throw new AgentError(FailureType.ConfigInvalid, `${SANDBOX_UID_ENV}=${JSON.stringify(raw)} is not a user id`, {
      where: SANDBOX_UID_ENV,
      expected: `a numeric uid such as ${DEFAULT_SANDBOX_UID} (nobody), or 0 to keep root without capabilities`,
    });
  }
  return Number(raw);
}
