/**
 * The arguments of `npm run cluster -- up|down|status [flags]`, resolved into settings:
 * a flag wins over what the last `up` saved in the state directory, which wins over the
 * defaults, so `status`, `down` and a second `up` need no flags to find the same cluster.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from '../../contracts/errors.js';
import {
  DEFAULT_SETTINGS,
  defaultClusterStateDir,
  readSavedSettings,
  type ClusterSettings,
} from './cluster-settings.js';

export const ClusterAction = { Up: 'up', Down: 'down', Status: 'status', Provision: 'provision' } as const;
export type ClusterAction = (typeof ClusterAction)[keyof typeof ClusterAction];

export const CLUSTER_HELP = `Usage: npm run cluster -- up|down|status|provision [flags]

A production-shaped Temporal on this machine, without Docker: the Temporal server
(built from the Go module proxy, cached under .tools/) on PostgreSQL for persistence and
visibility, the Web UI server, the namespace and the run's search attributes. \`up\` prints
TEMPORAL_ADDRESS (and the UI's URL) for start-run and the workers. Needs Go; root for
the PostgreSQL steps (apt-get install postgresql, pg_createcluster, the temporal role).

  up        build what is missing, start PostgreSQL, the server and the UI (idempotent)
  status    show what runs (exit 0 when everything does, 1 otherwise)
  down      stop the UI, the server and PostgreSQL; data is kept
  provision only what takes long and starts nothing: build the binaries and install
            PostgreSQL's packages if missing (CI runs it in the background during the tests)

  --purge            with down: also drop the PostgreSQL cluster and delete the state dir
  --port N           the frontend's gRPC port (default ${DEFAULT_SETTINGS.port}; the other services sit next to it)
  --ui-port N        the Web UI's port (default: port + 1000)
  --pg-port N        the PostgreSQL cluster's port (default ${DEFAULT_SETTINGS.pgPort})
  --pg-cluster NAME  the PostgreSQL cluster's name (default ${DEFAULT_SETTINGS.pgCluster})
  --namespace NAME   the namespace to create (default ${DEFAULT_SETTINGS.namespace})
  --state-dir DIR    pid files, logs, the database password (default .temporal/cluster)
  --help             show this help
`;

export interface ClusterArgs {
  readonly action: ClusterAction | 'help';
  readonly settings: ClusterSettings;
  readonly purge: boolean;
}

function port(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1024 || n > 65000)
    throw new UsageError(`${flag} must be a port 1024-65000, got ${value}`, flag);
  return n;
}

const OPTIONS = {
  purge: { type: 'boolean' },
  port: { type: 'string' },
  'ui-port': { type: 'string' },
  'pg-port': { type: 'string' },
  'pg-cluster': { type: 'string' },
  namespace: { type: 'string' },
  'state-dir': { type: 'string' },
  help: { type: 'boolean' },
} as const;

function parse(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: OPTIONS });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

function isClusterAction(value: string | undefined): value is ClusterAction {
  return (Object.values(ClusterAction) as readonly string[]).includes(value ?? '');
}

export function parseClusterArgs(argv: readonly string[]): ClusterArgs {
  const { values, positionals } = parse(argv);
  const stateDir = resolve(values['state-dir'] ?? defaultClusterStateDir());
  const saved = readSavedSettings(stateDir);
  const frontend = port(values.port, '--port') ?? saved?.port ?? DEFAULT_SETTINGS.port;
  const settings: ClusterSettings = {
    stateDir,
    port: frontend,
    uiPort:
      port(values['ui-port'], '--ui-port') ??
      (values.port === undefined ? saved?.uiPort : undefined) ??
      frontend + 1000,
    pgPort: port(values['pg-port'], '--pg-port') ?? saved?.pgPort ?? DEFAULT_SETTINGS.pgPort,
    pgCluster: values['pg-cluster'] ?? saved?.pgCluster ?? DEFAULT_SETTINGS.pgCluster,
    namespace: values.namespace ?? saved?.namespace ?? DEFAULT_SETTINGS.namespace,
  };
  if (!/^[a-z][a-z0-9_-]{0,40}$/.test(settings.pgCluster))
    throw new UsageError(`--pg-cluster must be a simple lowercase name, got ${settings.pgCluster}`, '--pg-cluster');
  if (values.help) return { action: 'help', settings, purge: false };
  const [action, ...rest] = positionals;
  if (rest.length > 0) throw new UsageError(`one action expected, got ${positionals.join(' ')}`);
  if (!isClusterAction(action))
    throw new UsageError(`expected up, down, status or provision, got ${action ?? 'nothing'}`);
  if (values.purge && action !== 'down') throw new UsageError('--purge goes with down', '--purge');
  return { action, settings, purge: values.purge === true };
}
