/**
 * Regenerates docs/images/web-ui-demo-run.png: runs the demo issue on a private dev
 * server (its own ports, Web UI on), then takes a headless Chromium screenshot of the
 * finished run's page. Needs `chromium` (Debian: apt-get install -y chromium).
 *
 *   npx tsx scripts/bench/web-ui-screenshot.ts [--out PATH] [--keep]   (--keep leaves the server up)
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { createDefaultDeps } from '../../src/activities/deps.js';
import { createModelServer } from '../../src/dev/model-server/model-server.js';
import { PROJECT_ROOT } from '../../src/host/project-root.js';
import { createSampleRepo, DEMO_DIR } from '../../src/dev/sample-repo.js';
import { createRunWorker } from '../../src/worker/create-run-worker.js';
import { runAgentWorkflow } from '../../src/workflows/run-agent.js';
import { startPrivateDevServer } from './bench-server.js';

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const outIndex = argv.indexOf('--out');
  const out = resolve(
    outIndex >= 0 ? argv[outIndex + 1]! : join(PROJECT_ROOT, 'docs', 'images', 'web-ui-demo-run.png'),
  );
  const dir = await mkdtemp(join(tmpdir(), 'issue-agent-ui-'));
  const server = await startPrivateDevServer({ dir, dbName: 'ui.sqlite', ui: true });
  const model = await createModelServer({ session: join(DEMO_DIR, 'session.json') });
  try {
    const { repoPath, issue } = await createSampleRepo();
    const connection = await Connection.connect({ address: server.address });
    const client = new Client({ connection, namespace: server.namespace });
    const taskQueue = `ui-demo-${process.pid}`;
    const workflowId = `issue-agent-issue-${issue}`;
    const deps = createDefaultDeps({ PATH: process.env.PATH, HOME: process.env.HOME, ANTHROPIC_BASE_URL: model.url });
    const { worker, connection: workerConnection } = await createRunWorker({
      address: server.address,
      namespace: server.namespace,
      taskQueue,
      deps,
    });
    const handle = await client.workflow.start(runAgentWorkflow, {
      taskQueue,
      workflowId,
      staticSummary: `Demo: issue #${issue} — sum() subtracts instead of adding`,
      args: [{ issue, agentDir: PROJECT_ROOT, repoPath, issueSource: 'local', artifactsDir: join(dir, 'artifacts') }],
    });
    const result = await worker.runUntil(handle.result());
    await workerConnection.close();
    await connection.close();
    process.stdout.write(`run ${workflowId}: ${result.outcome} — ${result.reason}\n`);
    const url = `${server.uiUrl}/namespaces/${server.namespace}/workflows/${workflowId}`;
    await sleep(1000);
    const profile = await mkdtemp(join(tmpdir(), 'chromium-profile-'));
    const args = [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${profile}`,
      `--screenshot=${out}`,
      '--window-size=1400,1000',
      '--hide-scrollbars',
      '--virtual-time-budget=15000',
      url,
    ];
    const shot = spawnSync('chromium', args, { encoding: 'utf8', timeout: 120_000 });
    process.stdout.write(
      `${url}\nchromium exit ${shot.status}: ${(shot.stderr ?? '')
        .split('\n')
        .filter((l) => /screenshot|error/i.test(l))
        .slice(0, 5)
        .join('\n')}\n`,
    );
    if (argv.includes('--keep')) {
      process.stdout.write(`server kept at ${server.uiUrl} (pid ${server.pid()}); Ctrl-C to stop\n`);
      await new Promise((r) => process.once('SIGINT', r));
    }
    await rm(profile, { recursive: true, force: true }).catch(() => undefined);
    await rm(repoPath, { recursive: true, force: true }).catch(() => undefined);
    return shot.status === 0 ? 0 : 1;
  } finally {
    await model.close();
    await server.stop();
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
