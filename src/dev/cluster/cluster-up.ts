/**
 * `npm run cluster -- up`: a production-shaped Temporal on this machine, without Docker.
 * Each step checks before it acts, so `up` is idempotent and also the way to bring back
 * whatever stopped (the test suite kills the server and runs `up` again):
 *   binaries (built once per version) → PostgreSQL (installed, cluster, role) → schemas
 *   (deploy/temporal/setup-schema.sh, as docker-compose runs it) → the server
 *   (deploy/temporal/temporal.yaml) → namespace and search attributes
 *   (deploy/temporal/register.sh) → the Web UI server (deploy/temporal-ui/docker.yaml).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AgentError } from '../../contracts/errors.js';
import { serverAnswers } from '../../host/temporal/ensure-temporal.js';
import { resolveTemporalCliPath } from '../../host/temporal/temporal-cli.js';
import {
  addressOf,
  DEPLOY_DIR,
  REGISTER_SCRIPT,
  SCHEMA_SCRIPT,
  serverEnvironment,
  settingsFile,
  UI_CONFIG_DIR,
  uiEnvironment,
  uiUrlOf,
  type ClusterSettings,
} from './cluster-settings.js';
import { ClusterProcess, logTail, runningPid, startDetached } from './cluster-processes.js';
import { ensureClusterBinaries } from './go-build.js';
import { ensurePgCluster, ensurePostgresInstalled, ensureTemporalRole, isRoot } from './postgres-cluster.js';

export interface ClusterEndpoints {
  readonly address: string;
  readonly namespace: string;
  readonly uiUrl: string;
}

type Say = (line: string) => void;

export async function clusterUp(s: ClusterSettings, say: Say): Promise<ClusterEndpoints> {
  mkdirSync(s.stateDir, { recursive: true });
  writeFileSync(settingsFile(s.stateDir), `${JSON.stringify(s, null, 2)}\n`);
  const binaries = await ensureClusterBinaries(say);

  const pg = await ensurePgCluster(s, ensurePostgresInstalled(say), say);
  const password = databasePassword(s.stateDir);
  if (isRoot()) ensureTemporalRole(pg, password, say);
  runScript('schema setup (deploy/temporal/setup-schema.sh)', SCHEMA_SCRIPT, {
    PATH: [dirname(binaries.sqlTool), process.env.PATH].join(delimiter),
    POSTGRES_SEEDS: '127.0.0.1',
    DB_PORT: String(s.pgPort),
    POSTGRES_USER: 'temporal',
    SQL_PASSWORD: password,
  });
  say(`PostgreSQL databases temporal and temporal_visibility ready (schema postgresql/v12)`);

  const address = addressOf(s);
  const serverPid = runningPid(s.stateDir, ClusterProcess.Server);
  if (serverPid !== undefined) say(`Temporal server already running (pid ${serverPid})`);
  else {
    if (await serverAnswers(address))
      throw new AgentError('CLUSTER_FAILED', `another Temporal server already answers on ${address}`, {
        where: '--port',
        expected: 'a free port (is the dev server running? stop it, or pass --port)',
      });
    const pid = startDetached(
      s.stateDir,
      ClusterProcess.Server,
      binaries.server,
      ['--allow-no-auth', 'start'],
      serverEnvironment(s, password),
      s.stateDir,
    );
    say(`Temporal server starting (pid ${pid}, log ${join(s.stateDir, 'temporal-server.log')})`);
    await waitUntil(() => serverAnswers(address), 120_000, s, ClusterProcess.Server, `the server on ${address}`);
  }

  const cli = resolveTemporalCliPath();
  runScript('namespace and search attributes (deploy/temporal/register.sh)', REGISTER_SCRIPT, {
    PATH: [dirname(cli), process.env.PATH].join(delimiter),
    TEMPORAL_ADDRESS: address,
    TEMPORAL_NAMESPACE: s.namespace,
  });
  say(`namespace ${s.namespace} has the run's search attributes`);

  const uiUrl = uiUrlOf(s);
  const uiPid = runningPid(s.stateDir, ClusterProcess.Ui);
  if (uiPid !== undefined) say(`Web UI server already running (pid ${uiPid})`);
  else {
    const args = ['--root', DEPLOY_DIR, '--config', UI_CONFIG_DIR, '--env', 'docker', 'start'];
    const pid = startDetached(s.stateDir, ClusterProcess.Ui, binaries.uiServer, args, uiEnvironment(s), s.stateDir);
    say(`Web UI server starting (pid ${pid})`);
    await waitUntil(() => httpAnswers(uiUrl), 60_000, s, ClusterProcess.Ui, `the Web UI on ${uiUrl}`);
  }
  return { address, namespace: s.namespace, uiUrl };
}

/** One random password per state directory (0600), never in a config file. */
function databasePassword(stateDir: string): string {
  const file = join(stateDir, 'postgres-password');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  if (!isRoot())
    throw new AgentError('CLUSTER_FAILED', `no database password in ${file}: the temporal role was not set up here`, {
      where: file,
      expected: 'run `sudo npm run cluster -- up` once (it creates the role and this file)',
    });
  const password = randomBytes(18).toString('hex');
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return password;
}

function runScript(what: string, script: string, env: Record<string, string>): void {
  const r = spawnSync('sh', [script], {
    encoding: 'utf8',
    env: { HOME: process.env.HOME ?? '/', ...env },
    timeout: 300_000,
  });
  if (r.status !== 0)
    throw new AgentError('CLUSTER_FAILED', `${what} failed (exit ${r.status}):\n${`${r.stdout}${r.stderr}`.trim()}`, {
      where: script,
    });
}

async function httpAnswers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    return res.ok;
  } catch {
    return false;
  }
}

async function waitUntil(
  ready: () => Promise<boolean>,
  timeoutMs: number,
  s: ClusterSettings,
  name: ClusterProcess,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (runningPid(s.stateDir, name) === undefined || Date.now() > deadline)
      throw new AgentError(
        'CLUSTER_FAILED',
        `${what} did not come up; the end of its log:\n${logTail(s.stateDir, name)}`,
        {
          where: join(s.stateDir, `${name}.log`),
        },
      );
    await sleep(500);
  }
}
