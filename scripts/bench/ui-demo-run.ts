/**
 * The demo issue run on a private dev server with the Web UI on, served by an in-process
 * worker and the offline model server: what the browser test opens and what the
 * screenshot shows. `holdAtRule` makes the model server sit on one rule of the demo
 * session (a long delay) so the run stays live at that step for as long as a test needs.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { createDefaultDeps } from '../../src/activities/deps.js';
import { createModelServer } from '../../src/dev/model-server/model-server.js';
import { loadSessionScript, type SessionScript } from '../../src/dev/model-server/session-script.js';
import { createSampleRepo, DEMO_DIR } from '../../src/dev/sample-repo.js';
import { PROJECT_ROOT } from '../../src/host/project-root.js';
import { repoIdentity, workflowIdFor } from '../../src/host/repo-identity.js';
import { createRunWorker } from '../../src/worker/create-run-worker.js';
import { runAgentWorkflow } from '../../src/workflows/run-agent.js';
import { AgentNameKey, IssueNumberKey, RepoIdKey } from '../../src/workflows/run/search-attributes.js';
import { startPrivateDevServer, type PrivateDevServer } from './bench-server.js';

export interface UiDemoRunOptions {
  /** A rule id of demo/session.json the model server holds its answer on (the run waits there). */
  readonly holdAtRule?: string;
  /** How long it holds (default 10 minutes: longer than any test). */
  readonly holdMs?: number;
}

export interface UiDemoRun {
  readonly server: PrivateDevServer;
  readonly client: Client;
  readonly handle: WorkflowHandle<typeof runAgentWorkflow>;
  readonly workflowId: string;
  /** The run's page in the Web UI. */
  readonly url: string;
  /** Stops the model server, the worker, the dev server, and removes the temp dirs. */
  stop(): Promise<void>;
}

/** The demo session with one rule's answer delayed by `holdMs`. */
export function heldSession(ruleId: string, holdMs: number): SessionScript {
  const demo = loadSessionScript(join(DEMO_DIR, 'session.json'));
  if (!demo.rules.some((r) => r.id === ruleId))
    throw new Error(`demo/session.json has no rule ${ruleId} to hold (expected one of its rule ids)`);
  return {
    ...demo,
    rules: demo.rules.map((r) => (r.id === ruleId ? { ...r, respond: { ...r.respond, delayMs: holdMs } } : r)),
  };
}

export async function startUiDemoRun(options: UiDemoRunOptions = {}): Promise<UiDemoRun> {
  const dir = await mkdtemp(join(tmpdir(), 'issue-agent-ui-'));
  const server = await startPrivateDevServer({ dir, dbName: 'ui.sqlite', ui: true });
  const session =
    options.holdAtRule === undefined
      ? join(DEMO_DIR, 'session.json')
      : heldSession(options.holdAtRule, options.holdMs ?? 10 * 60_000);
  const model = await createModelServer({ session });
  const { repoPath, issue } = await createSampleRepo();
  const repo = await repoIdentity(repoPath);
  const connection = await Connection.connect({ address: server.address });
  const client = new Client({ connection, namespace: server.namespace });
  const taskQueue = `ui-demo-${process.pid}`;
  const workflowId = workflowIdFor(repo.id, 'issue-agent', issue);
  // The model key never reaches the worker: the offline server answers every call.
  const deps = createDefaultDeps({ PATH: process.env.PATH, HOME: process.env.HOME, ANTHROPIC_BASE_URL: model.url });
  const { worker, connection: workerConnection } = await createRunWorker({
    address: server.address,
    namespace: server.namespace,
    taskQueue,
    deps,
  });
  const running = worker.run();
  const handle = await client.workflow.start(runAgentWorkflow, {
    taskQueue,
    workflowId,
    staticSummary: `Demo: issue #${issue}: sum() subtracts instead of adding`,
    typedSearchAttributes: [
      { key: RepoIdKey, value: repo.id },
      { key: IssueNumberKey, value: issue },
      { key: AgentNameKey, value: 'issue-agent' },
    ],
    args: [{ issue, agentDir: PROJECT_ROOT, repoPath, issueSource: 'local', artifactsDir: join(dir, 'artifacts') }],
  });
  const url = `${server.uiUrl}/namespaces/${server.namespace}/workflows/${encodeURIComponent(workflowId)}`;
  return {
    server,
    client,
    handle,
    workflowId,
    url,
    async stop() {
      // The model server first: a held answer ends at once, so the worker's shutdown does not wait on it.
      await model.close();
      worker.shutdown();
      await running.catch(() => undefined);
      await workerConnection.close();
      await connection.close();
      await server.stop();
      await rm(repoPath, { recursive: true, force: true }).catch(() => undefined);
      await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    },
  };
}
