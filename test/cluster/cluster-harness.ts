/**
 * The cluster suite's harness: `npm run cluster` as a process (the user's path) on ports,
 * a PostgreSQL cluster and a state directory of the suite's own, so it never touches a
 * developer's cluster or dev server; a client on it; direct SQL on its databases; and what
 * a delivered run left in its repository.
 */
import { spawn, spawnSync } from 'node:child_process';
import { Client, Connection } from '@temporalio/client';
import { PROJECT_ROOT } from '../../src/host/project-root.js';
import { inspectRepo } from '../../scripts/chaos/run-chaos.js';

export const CLUSTER_TESTS_ENABLED = process.env.ISSUE_AGENT_CLUSTER_TESTS === '1';

export const SUITE_CLUSTER = {
  port: 17233,
  pgPort: 15433,
  pgCluster: 'issue-agent-test',
} as const;

export interface ClusterCommandResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** `npm run cluster -- <action> ...` with the suite's flags; progress streams to our stderr. */
export function clusterCommand(
  stateDir: string,
  action: string,
  extra: readonly string[] = [],
): Promise<ClusterCommandResult> {
  const started = Date.now();
  const args = [
    '--import',
    'tsx',
    'src/dev/cluster/cluster-command.ts',
    action,
    '--state-dir',
    stateDir,
    ...(action === 'up'
      ? [
          '--port',
          String(SUITE_CLUSTER.port),
          '--pg-port',
          String(SUITE_CLUSTER.pgPort),
          '--pg-cluster',
          SUITE_CLUSTER.pgCluster,
        ]
      : []),
    ...extra,
  ];
  const child = spawn(process.execPath, args, {
    cwd: PROJECT_ROOT,
    env: { ...process.env, NODE_TEST_CONTEXT: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
    process.stderr.write(`[cluster ${action}] ${d}`);
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
  });
}

/** `KEY=value` lines of `up`'s stdout. */
export function printedEnv(stdout: string): Record<string, string> {
  return Object.fromEntries(
    stdout
      .split('\n')
      .map((l) => /^([A-Z_]+)=(.*)$/.exec(l.trim()))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1]!, m[2]!]),
  );
}

export async function connectClient(
  address: string,
  namespace: string,
): Promise<{ client: Client; close(): Promise<void> }> {
  const connection = await Connection.connect({ address });
  return { client: new Client({ connection, namespace }), close: () => connection.close() };
}

/** One value from the suite's PostgreSQL, asked as its superuser (the test runs as root). */
export function sql(database: string, query: string): string {
  const r = spawnSync(
    'runuser',
    ['-u', 'postgres', '--', 'psql', '-p', String(SUITE_CLUSTER.pgPort), '-d', database, '-tAc', query],
    { cwd: '/', encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`psql ${query}: ${r.stderr}`);
  return r.stdout.trim();
}

/** What a `merge` delivery left (the chaos run's own check). */
export const deliveredEffects = inspectRepo;

export interface SuiteWorker {
  readonly pid: number;
  /** Resolves once the worker printed that it polls. */
  readonly polling: Promise<void>;
  stop(): Promise<void>;
}

/** `issue-agent worker` (src/worker.ts) on the cluster, as its own process. */
export function startSuiteWorker(env: Readonly<Record<string, string>>): SuiteWorker {
  const { ANTHROPIC_API_KEY: _k, GITHUB_TOKEN: _g, MODEL_RPM: _r, MODEL_TPM: _t, ...base } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
    cwd: PROJECT_ROOT,
    env: { ...base, LOG_LEVEL: 'WARN', ...env, NODE_TEST_CONTEXT: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Never leave a worker polling the suite's server after this process ends.
  const reap = (): void => void child.kill('SIGKILL');
  process.once('exit', reap);
  void exited.then(() => process.off('exit', reap));
  const polling = new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      seen += d;
      if (/worker polling /.test(seen)) resolve();
    });
    void exited.then(() => reject(new Error(`the worker exited before it polled:\n${seen}`)));
  });
  polling.catch(() => undefined);
  return {
    pid: child.pid ?? -1,
    polling,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
