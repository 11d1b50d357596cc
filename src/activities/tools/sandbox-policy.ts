/**
 * The sandbox's network policy, set by the operator in the worker's environment
 * (`ISSUE_AGENT_SANDBOX_NETWORK`), never by the agent: `none` (default) gives agent
 * commands a private network namespace with loopback only, where the machine allows it;
 * `host` shares the worker's network (package installs work, but so does reaching the
 * Temporal frontend on localhost: only for trusted agents).
 */
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
