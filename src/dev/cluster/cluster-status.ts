/**
 * `npm run cluster -- status` and `down`: what runs of the cluster whose settings `up`
 * saved in the state directory, and stopping it. `down` keeps the data (the PostgreSQL
 * cluster and the state directory), so the next `up` finds every run where it was;
 * `down --purge` also drops the PostgreSQL cluster and deletes the state directory.
 */
import { rmSync } from 'node:fs';
import { serverAnswers } from '../../host/temporal/ensure-temporal.js';
import { addressOf, uiUrlOf, type ClusterSettings } from './cluster-settings.js';
import { ClusterProcess, logFile, runningPid, stopProcess } from './cluster-processes.js';
import { dropPgCluster, findPgCluster, stopPostgres } from './postgres-cluster.js';

type Say = (line: string) => void;

export interface ClusterStatus {
  readonly lines: readonly string[];
  /** Everything runs and the frontend answers. */
  readonly up: boolean;
}

export async function clusterStatus(s: ClusterSettings): Promise<ClusterStatus> {
  const pg = findPgCluster(s.pgCluster);
  const server = runningPid(s.stateDir, ClusterProcess.Server);
  const ui = runningPid(s.stateDir, ClusterProcess.Ui);
  const answers = server !== undefined && (await serverAnswers(addressOf(s)));
  const pgLine =
    pg === undefined
      ? `PostgreSQL       cluster ${s.pgCluster}: not created`
      : `PostgreSQL       ${pg.version}/${pg.name} on 127.0.0.1:${pg.port}: ${pg.online ? 'online' : 'down'}`;
  const proc = (label: string, pid: number | undefined, name: ClusterProcess, extra: string): string =>
    `${label.padEnd(17)}${pid === undefined ? 'stopped' : `running (pid ${pid}) ${extra}`}  log ${logFile(s.stateDir, name)}`;
  return {
    lines: [
      pgLine,
      proc('Temporal server', server, ClusterProcess.Server, `on ${addressOf(s)}${answers ? '' : ' (not answering)'}`),
      proc('Web UI server', ui, ClusterProcess.Ui, `on ${uiUrlOf(s)}`),
      `state            ${s.stateDir}`,
    ],
    up: pg?.online === true && answers && ui !== undefined,
  };
}

export async function clusterDown(s: ClusterSettings, options: { purge: boolean }, say: Say): Promise<void> {
  if (await stopProcess(s.stateDir, ClusterProcess.Ui)) say('Web UI server stopped');
  if (await stopProcess(s.stateDir, ClusterProcess.Server)) say('Temporal server stopped');
  const pg = findPgCluster(s.pgCluster);
  if (pg !== undefined && options.purge) {
    dropPgCluster(pg);
    say(`PostgreSQL cluster ${pg.version}/${pg.name} dropped (all its data deleted)`);
  } else if (pg?.online) {
    stopPostgres(pg);
    say(`PostgreSQL cluster ${pg.version}/${pg.name} stopped (data kept; \`up\` starts it again)`);
  }
  if (options.purge) {
    rmSync(s.stateDir, { recursive: true, force: true });
    say(`state directory ${s.stateDir} deleted`);
  }
}
