/**
 * The TCP ports a networked setup command may connect to (`npm ci`, `pip install`, an
 * agent-written setup): the web's (80, 443), DNS over TCP (53), git's (22, 9418), the
 * ports of the proxies and package registries the worker's environment names, and what
 * the operator adds in `ISSUE_AGENT_SETUP_PORTS` (a private registry on 8081, say).
 *
 * Why: setup runs the repository's code (a `postinstall`, a `setup.py`, a `.yarnrc.yml`
 * plugin) with the host's network, and the host's loopback holds the Temporal frontend
 * (7233, no authentication on a dev server): from there a hostile repository could signal
 * or terminate any run, approve a plan waiting for a human, or start runs of its own.
 * Landlock can refuse connect(2) by port, not by address (landlock-net.ts), so setup
 * reaches registries anywhere but no other service on any host, this one included.
 */
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';
import { ECOSYSTEMS } from '../../definition/ecosystems/ecosystem-registry.js';

export const SETUP_PORTS_ENV = 'ISSUE_AGENT_SETUP_PORTS';

/** SSH and DNS over TCP, the web, git's own protocol. */
export const DEFAULT_SETUP_PORTS: readonly number[] = [22, 53, 80, 443, 9418];

const PROXY_VARS = ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'all_proxy'];
const REGISTRY_VARS = ECOSYSTEMS.flatMap((ecosystem) => ecosystem.registryPointers ?? []);

type Env = Readonly<Record<string, string | undefined>>;

/** The explicit port of a URL (`http://proxy:3128`), if any; GOPROXY-style lists give each one's. */
function urlPorts(value: string): number[] {
  const ports: number[] = [];
  for (const part of value.split(/[,|\s]+/)) {
    try {
      const port = new URL(part).port;
      if (port !== '') ports.push(Number(port));
    } catch {
      // `direct`, `off`, a bare host: no port of its own
    }
  }
  return ports;
}

/** `ISSUE_AGENT_SETUP_PORTS=any`: no port rule at all (build tools that talk to a daemon of their own on loopback). */
export const ANY_PORT = 'any';

function extraPorts(env: Env): number[] {
  const raw = env[SETUP_PORTS_ENV]?.trim();
  if (raw === undefined || raw === '') return [];
  return raw.split(/[,\s]+/).map((word) => {
    const port = Number(word);
    if (!/^\d{1,5}$/.test(word) || port < 1 || port > 65535)
      throw new AgentError(
        FailureType.ConfigInvalid,
        `${SETUP_PORTS_ENV}=${JSON.stringify(raw)}: "${word}" is not a port`,
        {
          where: SETUP_PORTS_ENV,
          expected: `TCP port numbers (1-65535) separated by commas, e.g. 8081,4873, or "${ANY_PORT}" for no port rule`,
        },
      );
    return port;
  });
}

/**
 * Every port setup may connect to, sorted, once each; undefined with `any`: setup then
 * connects anywhere, this host's Temporal frontend included, as before the rule (Gradle's
 * and Bazel's clients reach their daemons over loopback on a port of the moment).
 */
export function setupConnectPorts(env: Env = process.env): number[] | undefined {
  if (env[SETUP_PORTS_ENV]?.trim().toLowerCase() === ANY_PORT) return undefined;
  const ports = new Set<number>(DEFAULT_SETUP_PORTS);
  for (const name of [...PROXY_VARS, ...REGISTRY_VARS]) {
    const value = env[name];
    if (value) for (const port of urlPorts(value)) ports.add(port);
  }
  for (const port of extraPorts(env)) ports.add(port);
  return [...ports].sort((a, b) => a - b);
}
