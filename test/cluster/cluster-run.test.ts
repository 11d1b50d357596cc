/**
 * The cluster suite (`npm run test:cluster`; skipped in the default suite): real runs on
 * the production-shaped server `npm run cluster -- up` brings up, the Temporal server built
 * from source on PostgreSQL for persistence AND visibility. A worker process and
 * `start-run` reach it only through TEMPORAL_ADDRESS, the model is the offline server
 * playing the demo session. Claims:
 *   - `up` is idempotent, and `status` sees the server, the UI and PostgreSQL;
 *   - a run completes, is delivered once, and a query on our custom search attributes
 *     lists it; its rows are in PostgreSQL's temporal and temporal_visibility databases;
 *   - a run whose Temporal server is SIGKILLed (and brought back by `up`) and whose
 *     PostgreSQL is stopped like a crash and restarted, mid-run, still completes, once.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { WorkflowFailedError, type Client } from '@temporalio/client';
import type { RunResult } from '../../src/contracts/run.js';
import { createModelServer, type ModelServer } from '../../src/dev/model-server/model-server.js';
import { loadSessionScript } from '../../src/dev/model-server/session-script.js';
import { createSampleRepo, DEMO_DIR } from '../../src/dev/sample-repo.js';
import { findPgCluster, startPostgres, stopPostgres, waitForPostgres } from '../../src/dev/cluster/postgres-cluster.js';
import { repoIdentity } from '../../src/host/repo-identity.js';
import { runCli, describeResult } from '../cli/cli-process.js';
import { until } from '../helpers/until.js';
import {
  CLUSTER_TESTS_ENABLED,
  clusterCommand,
  connectClient,
  deliveredEffects,
  printedEnv,
  sql,
  startSuiteWorker,
  SUITE_CLUSTER,
  type SuiteWorker,
} from './cluster-harness.js';

const skip = CLUSTER_TESTS_ENABLED ? false : 'the cluster suite runs with npm run test:cluster';
const LONG = 30 * 60_000;

let stateDir: string | undefined;
let endpoint: { address: string; namespace: string; uiUrl: string };
let model: ModelServer | undefined;
let worker: SuiteWorker | undefined;
let temporal: { client: Client; close(): Promise<void> } | undefined;
const repos: string[] = [];
const taskQueue = `cluster-suite-${Date.now().toString(36)}`;

before(
  async () => {
    if (!CLUSTER_TESTS_ENABLED) return;
    stateDir = await mkdtemp(join(tmpdir(), 'issue-agent-cluster-'));
    const up = await clusterCommand(stateDir, 'up');
    assert.equal(up.code, 0, `cluster up failed:\n${up.stderr}`);
    const printed = printedEnv(up.stdout);
    endpoint = {
      address: printed['TEMPORAL_ADDRESS']!,
      namespace: printed['TEMPORAL_NAMESPACE']!,
      uiUrl: printed['TEMPORAL_UI_URL']!,
    };
    assert.equal(endpoint.address, `127.0.0.1:${SUITE_CLUSTER.port}`);
    process.stderr.write(`cluster up in ${Math.round(up.ms / 1000)} s\n`);
    // The demo session, each answer slowed so a run lasts long enough to break things under it.
    const demo = loadSessionScript(join(DEMO_DIR, 'session.json'));
    const rules = demo.rules.map((r) => ({
      ...r,
      respond: { ...r.respond, delayMs: 1000 + (r.respond.delayMs ?? 0) },
    }));
    model = await createModelServer({ session: { ...demo, rules } });
    worker = startSuiteWorker(runEnv());
    await worker.polling;
    temporal = await connectClient(endpoint.address, endpoint.namespace);
  },
  { timeout: LONG },
);

after(async () => {
  await worker?.stop();
  await temporal?.close();
  await model?.close();
  if (stateDir !== undefined) {
    const down = await clusterCommand(stateDir, 'down', ['--purge']);
    assert.equal(down.code, 0, down.stderr);
  }
  await Promise.all(repos.map((r) => rm(r, { recursive: true, force: true })));
});

function runEnv(): Record<string, string> {
  return {
    TEMPORAL_ADDRESS: endpoint.address,
    TEMPORAL_NAMESPACE: endpoint.namespace,
    TEMPORAL_TASK_QUEUE: taskQueue,
    ANTHROPIC_BASE_URL: model!.url,
  };
}

async function newRepo(): Promise<{ repoPath: string; issue: number; repoId: string }> {
  const { repoPath, issue } = await createSampleRepo();
  repos.push(repoPath);
  return { repoPath, issue, repoId: (await repoIdentity(repoPath)).id };
}

/** Visibility is written asynchronously: ask every second until the query lists the run. */
async function untilListed(query: string, workflowId: string, what: string): Promise<void> {
  await until(
    `${what} (${query})`,
    async () => {
      for await (const execution of temporal!.client.workflow.list({ query }))
        if (execution.workflowId === workflowId) return true;
      return undefined;
    },
    30_000,
    1000,
  );
}

/** The result, asking again while the server or its database is down. */
async function awaitResult(workflowId: string, timeoutMs: number): Promise<RunResult> {
  let last: unknown;
  return until(
    () => `the result of ${workflowId} (last error: ${String(last)})`,
    async () => {
      try {
        return (await temporal!.client.workflow.getHandle(workflowId).result()) as RunResult;
      } catch (err) {
        if (err instanceof WorkflowFailedError) throw err;
        last = err;
        return undefined;
      }
    },
    timeoutMs,
    1000,
  );
}

async function waitForRequests(count: number, timeoutMs: number, what: string): Promise<void> {
  await until(
    () => `${what} (${model!.stats().requests} model requests)`,
    () => (model!.stats().requests >= count ? true : undefined),
    timeoutMs,
    200,
  );
}

test(
  'up is idempotent and status shows PostgreSQL, the server and the Web UI running',
  { skip, timeout: LONG },
  async () => {
    const again = await clusterCommand(stateDir!, 'up');
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /Temporal server already running \(pid \d+\)/);
    assert.match(again.stderr, /Web UI server already running/);
    assert.deepEqual(printedEnv(again.stdout)['TEMPORAL_ADDRESS'], endpoint.address);
    const status = await clusterCommand(stateDir!, 'status');
    assert.equal(status.code, 0, status.stdout);
    assert.match(
      status.stdout,
      new RegExp(`PostgreSQL\\s+\\d+/${SUITE_CLUSTER.pgCluster} on 127.0.0.1:${SUITE_CLUSTER.pgPort}: online`),
    );
    assert.match(status.stdout, /Temporal server\s+running \(pid \d+\) on 127\.0\.0\.1:17233 {2}log /);
    const ui = await fetch(endpoint.uiUrl);
    assert.equal(ui.status, 200, 'the Web UI answers');
    assert.match(await ui.text(), /<html/i);
    const config = await readFile(join(stateDir!, 'cluster.json'), 'utf8');
    assert.doesNotMatch(config, /password/i, 'the settings file holds no password');
  },
);

test(
  'a run started with start-run completes on the cluster and a search-attribute query lists it',
  { skip, timeout: LONG },
  async () => {
    const { repoPath, issue, repoId } = await newRepo();
    const cli = await runCli(
      ['start-run', '--issue', String(issue), '--repo', repoPath, '--json', '--deliver', 'merge'],
      {
        env: runEnv(),
        timeoutMs: 600_000,
      },
    );
    assert.equal(cli.code, 0, describeResult(cli));
    assert.match(cli.stderr, /a worker polls task queue/, 'the separate worker took the run');
    assert.match(
      cli.stderr,
      /worker \d+@\S+ took the run: that process calls the model with its own/,
      'and says which',
    );
    const result = JSON.parse(
      cli.stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .at(-1)!,
    ) as RunResult & {
      workflowId: string;
    };
    assert.equal(result.outcome, 'success', result.reason);
    assert.deepEqual(await deliveredEffects(repoPath, issue), { mergeCommits: 1, comments: 1, issueState: 'closed' });
    await untilListed(
      `RepoId = '${repoId}' AND IssueNumber = ${issue} AND ExecutionStatus = 'Completed'`,
      result.workflowId,
      'the visibility query on RepoId and IssueNumber to list the completed run',
    );
    // Persistence and visibility are PostgreSQL: the run's rows are in both databases.
    const id = result.workflowId.replaceAll("'", "''");
    assert.equal(sql('temporal', `select count(*) from executions where workflow_id = '${id}'`), '1');
    assert.equal(
      sql('temporal_visibility', `select count(*) from executions_visibility where workflow_id = '${id}'`),
      '1',
    );
  },
);

test(
  'a run survives its Temporal server SIGKILLed and its PostgreSQL crashed mid-run, and completes once',
  { skip, timeout: LONG },
  async () => {
    const { repoPath, issue, repoId } = await newRepo();
    const before = model!.stats().requests;
    const cli = await runCli(
      ['start-run', '--issue', String(issue), '--repo', repoPath, '--json', '--deliver', 'merge', '--detach'],
      { env: runEnv(), timeoutMs: 120_000 },
    );
    assert.equal(cli.code, 0, describeResult(cli));
    const { workflowId } = JSON.parse(cli.stdout.trim().split('\n').at(-1)!) as { workflowId: string };

    await waitForRequests(before + 3, 180_000, 'the run to be mid-step');
    const serverPid = Number((await readFile(join(stateDir!, 'temporal-server.pid'), 'utf8')).split('\n')[0]);
    process.kill(serverPid, 'SIGKILL');
    const killedAt = Date.now();
    await sleep(3000);
    const up = await clusterCommand(stateDir!, 'up');
    assert.equal(up.code, 0, up.stderr);
    assert.match(up.stderr, /Temporal server starting/, 'up started the killed server again');
    const serverDownMs = Date.now() - killedAt;

    const afterServer = model!.stats().requests;
    await waitForRequests(afterServer + 2, 180_000, 'the run to go on after the server restart');
    const pg = findPgCluster(SUITE_CLUSTER.pgCluster)!;
    stopPostgres(pg, 'immediate');
    const pgStoppedAt = Date.now();
    const atPgStop = model!.stats().requests;
    await sleep(5000);
    await startPostgres(pg);
    await waitForPostgres(SUITE_CLUSTER.pgPort, 60_000);
    const pgDownMs = Date.now() - pgStoppedAt;

    const result = await awaitResult(workflowId, 600_000);
    process.stderr.write(
      `server down ${Math.round(serverDownMs / 1000)} s (SIGKILL → up), PostgreSQL down ${Math.round(pgDownMs / 1000)} s (immediate stop → start)\n`,
    );
    assert.equal(result.outcome, 'success', result.reason);
    assert.ok(model!.stats().requests > atPgStop, 'the run went on after PostgreSQL came back');
    assert.deepEqual(await deliveredEffects(repoPath, issue), { mergeCommits: 1, comments: 1, issueState: 'closed' });
    await untilListed(`RepoId = '${repoId}' AND ExecutionStatus = 'Completed'`, workflowId, 'the run listed by RepoId');
    const id = workflowId.replaceAll("'", "''");
    assert.equal(
      sql('temporal_visibility', `select count(*) from executions_visibility where workflow_id = '${id}'`),
      '1',
      'one run, not two',
    );
  },
);
