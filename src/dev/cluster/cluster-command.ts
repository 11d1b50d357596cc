/**
 * `npm run cluster -- up|down|status|provision`: the thin entry of the local production-shaped
 * cluster (see cluster-up.ts). Progress goes to stderr; `up` prints the environment for
 * start-run and the workers on stdout (TEMPORAL_ADDRESS=…), so
 * `export $(npm run --silent cluster -- up)` works.
 */
import { AgentError } from '../../contracts/errors.js';
import { CLUSTER_HELP, parseClusterArgs } from './cluster-args.js';
import { clusterDown, clusterStatus } from './cluster-status.js';
import { clusterUp } from './cluster-up.js';
import { ensureClusterBinaries } from './go-build.js';
import { ensurePostgresInstalled } from './postgres-cluster.js';

const say = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

async function main(): Promise<number> {
  const args = parseClusterArgs(process.argv.slice(2));
  switch (args.action) {
    case 'help':
      process.stdout.write(CLUSTER_HELP);
      return 0;
    case 'up': {
      const started = Date.now();
      const up = await clusterUp(args.settings, say);
      say(`cluster up in ${Math.round((Date.now() - started) / 1000)} s; Web UI: ${up.uiUrl}`);
      process.stdout.write(
        `TEMPORAL_ADDRESS=${up.address}\nTEMPORAL_NAMESPACE=${up.namespace}\nTEMPORAL_UI_URL=${up.uiUrl}\n`,
      );
      return 0;
    }
    case 'status': {
      const status = await clusterStatus(args.settings);
      process.stdout.write(`${status.lines.join('\n')}\n`);
      return status.up ? 0 : 1;
    }
    case 'down':
      await clusterDown(args.settings, { purge: args.purge }, say);
      return 0;
    case 'provision': {
      const started = Date.now();
      const binaries = await ensureClusterBinaries(say);
      const pg = ensurePostgresInstalled(say);
      say(`provisioned in ${Math.round((Date.now() - started) / 1000)} s: ${binaries.server}, PostgreSQL ${pg}`);
      return 0;
    }
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const usage = AgentError.isInstance(error) && error.code === 'USAGE';
    const text = AgentError.isInstance(error)
      ? error.describe()
      : error instanceof Error
        ? error.message
        : String(error);
    process.stderr.write(`cluster: ${text}${usage ? ' (see --help)' : ''}\n`);
    process.exit(usage ? 2 : 1);
  },
);
