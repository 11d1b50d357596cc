/**
 * PostgreSQL for the cluster, the way the distribution intends it: Debian's packages
 * (`apt-get install postgresql`), a cluster of its own made with `pg_createcluster` (data in
 * /var/lib/postgresql/<ver>/<name>, owned by the postgres user, started with
 * `pg_ctlcluster`), and the `temporal` role created by the postgres superuser through
 * `runuser -u postgres -- psql`. Those steps need root; without root an existing cluster is
 * used as it is, and anything missing is reported with the exact commands to run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { AgentError } from '../../contracts/errors.js';
import type { ClusterSettings } from './cluster-settings.js';

export const isRoot = (): boolean => process.getuid?.() === 0;

export interface PgCluster {
  readonly version: string;
  readonly name: string;
  readonly port: number;
  readonly online: boolean;
}

interface Ran {
  readonly code: number;
  readonly output: string;
}

function run(cmd: string, args: readonly string[], input?: string): Ran {
  const r = spawnSync(cmd, args, { cwd: '/', encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'] });
  if (r.error) return { code: 127, output: String(r.error) };
  return { code: r.status ?? 1, output: `${r.stdout ?? ''}${r.stderr ?? ''}`.trim() };
}

function must(what: string, r: Ran, expected: string): void {
  if (r.code !== 0)
    throw new AgentError('CLUSTER_FAILED', `${what} failed (exit ${r.code}): ${r.output}`, { expected });
}

function needRoot(what: string, commands: readonly string[]): never {
  throw new AgentError(
    'CLUSTER_FAILED',
    `${what}, which needs root. Run \`sudo npm run cluster -- up\`, or have an administrator run:\n  ${commands.join('\n  ')}`,
    { where: 'PostgreSQL', expected: 'root, or the cluster prepared by these commands' },
  );
}

/** The newest PostgreSQL server version installed from the packages (/usr/lib/postgresql/<v>). */
export function installedPgVersion(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!existsSync('/usr/bin/pg_createcluster') || !existsSync(base)) return undefined;
  const versions = readdirSync(base).filter((v) => existsSync(`${base}/${v}/bin/postgres`));
  return versions.sort((a, b) => Number(b) - Number(a))[0];
}

export function ensurePostgresInstalled(say: (line: string) => void): string {
  const found = installedPgVersion();
  if (found !== undefined) return found;
  if (!isRoot()) needRoot('PostgreSQL is not installed', ['apt-get update && apt-get install -y postgresql']);
  say("PostgreSQL is not installed: installing it from the distribution's packages (apt-get install -y postgresql)");
  let r = run('apt-get', ['install', '-y', '-q', 'postgresql']);
  if (r.code !== 0) {
    must('apt-get update', run('apt-get', ['update', '-q']), 'the Debian package lists');
    r = run('apt-get', ['install', '-y', '-q', 'postgresql']);
  }
  must('apt-get install -y postgresql', r, 'the postgresql package installed');
  const version = installedPgVersion();
  if (version === undefined) throw new AgentError('CLUSTER_FAILED', 'postgresql installed but no server found');
  return version;
}

export function findPgCluster(name: string): PgCluster | undefined {
  const r = run('pg_lsclusters', ['--no-header']);
  for (const line of r.output.split('\n')) {
    const [version, cluster, port, status] = line.trim().split(/\s+/);
    if (cluster === name && version !== undefined)
      return { version, name, port: Number(port), online: status?.startsWith('online') ?? false };
  }
  return undefined;
}

/** Creates the cluster if missing, starts it if down, waits until it accepts connections. */
export async function ensurePgCluster(
  s: ClusterSettings,
  version: string,
  say: (line: string) => void,
): Promise<PgCluster> {
  let cluster = findPgCluster(s.pgCluster);
  if (cluster === undefined) {
    const create = ['pg_createcluster', version, s.pgCluster, '--port', String(s.pgPort), '--start-conf', 'manual'];
    if (!isRoot()) needRoot(`PostgreSQL cluster ${s.pgCluster} does not exist`, [create.join(' ')]);
    say(`creating PostgreSQL ${version} cluster "${s.pgCluster}" on port ${s.pgPort} (${create.join(' ')})`);
    must(create.join(' '), run(create[0]!, create.slice(1)), 'a new PostgreSQL cluster');
    cluster = findPgCluster(s.pgCluster);
    if (cluster === undefined)
      throw new AgentError('CLUSTER_FAILED', `pg_createcluster made no cluster ${s.pgCluster}`);
  }
  if (cluster.port !== s.pgPort)
    throw new AgentError('CLUSTER_FAILED', `PostgreSQL cluster ${s.pgCluster} listens on ${cluster.port}`, {
      where: '--pg-port',
      expected: `--pg-port ${cluster.port}, or another --pg-cluster name`,
    });
  if (!cluster.online) await startPostgres(cluster);
  await waitForPostgres(s.pgPort, 60_000);
  return { ...cluster, online: true };
}

export async function startPostgres(cluster: PgCluster): Promise<void> {
  const r = run('pg_ctlcluster', [cluster.version, cluster.name, 'start']);
  if (r.code !== 0 && !isRoot())
    needRoot(`PostgreSQL cluster ${cluster.name} is down and could not be started (${r.output})`, [
      `pg_ctlcluster ${cluster.version} ${cluster.name} start`,
    ]);
  must(`pg_ctlcluster ${cluster.version} ${cluster.name} start`, r, 'the cluster started');
}

/** `mode` immediate is a crash as far as PostgreSQL is concerned (recovery on the next start). */
export function stopPostgres(cluster: PgCluster, mode: 'fast' | 'immediate' = 'fast'): void {
  const r = run('pg_ctlcluster', [cluster.version, cluster.name, 'stop', '-m', mode]);
  if (r.code !== 0 && !/is not running/.test(r.output))
    must(`pg_ctlcluster ${cluster.version} ${cluster.name} stop`, r, 'the cluster stopped');
}

export function dropPgCluster(cluster: PgCluster): void {
  must(
    `pg_dropcluster ${cluster.version} ${cluster.name}`,
    run('pg_dropcluster', ['--stop', cluster.version, cluster.name]),
    'the cluster dropped',
  );
}

export async function waitForPostgres(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (run('pg_isready', ['-q', '-h', '127.0.0.1', '-p', String(port)]).code !== 0) {
    if (Date.now() > deadline)
      throw new AgentError('CLUSTER_FAILED', `PostgreSQL on 127.0.0.1:${port} did not accept connections`, {
        where: '/var/log/postgresql/',
        expected: 'a running PostgreSQL cluster',
      });
    await sleep(500);
  }
}

/**
 * The `temporal` role (it creates its two databases itself, hence CREATEDB) with the
 * password of this state directory. Root only; the SQL goes through stdin, not argv.
 */
export function ensureTemporalRole(cluster: PgCluster, password: string, say: (line: string) => void): void {
  if (!/^[0-9a-f]+$/.test(password)) throw new AgentError('CLUSTER_FAILED', 'unexpected password format');
  const sql = [
    "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'temporal') THEN CREATE ROLE temporal; END IF; END $$;",
    `ALTER ROLE temporal WITH LOGIN CREATEDB PASSWORD '${password}';`,
  ].join('\n');
  const psql = ['-u', 'postgres', '--', 'psql', '-q', '-p', String(cluster.port), '-v', 'ON_ERROR_STOP=1', '-f', '-'];
  if (!isRoot())
    needRoot('the temporal role must be created or given its password', [`runuser ${psql.join(' ')}  <<< "${sql}"`]);
  must('runuser -u postgres -- psql (role temporal)', run('runuser', psql, sql), 'the temporal role');
  say(`PostgreSQL role temporal ready on port ${cluster.port}`);
}
