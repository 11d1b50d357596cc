/**
 * Runs one issue end to end for a workflow test: a sample repository in a temp dir,
 * the offline model server playing a session, an in-process worker with the real
 * activities (real git, real commands) on the real dev server.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import type { OpenTelemetryPlugin } from '@temporalio/interceptors-opentelemetry';
import type { RunInput, RunResult } from '../../src/contracts/run.js';
import { createDefaultDeps } from '../../src/activities/deps.js';
import { createModelServer, type ModelServer } from '../../src/dev/model-server/model-server.js';
import type { SessionScript } from '../../src/dev/model-server/session-script.js';
import { PROJECT_ROOT } from '../../src/host/project-root.js';
import { createSampleRepo } from '../../src/dev/sample-repo.js';
import { writeLocalIssue } from '../../src/activities/issues/local-issue-store.js';
import { createRunWorker } from '../../src/worker/create-run-worker.js';
import { runAgentWorkflow } from '../../src/workflows/run-agent.js';
import { readRunResult } from '../../src/host/run-result.js';
import { testEnv, workflowBundle } from './temporal-env.js';

export interface Scenario {
  readonly session: SessionScript | string;
  readonly agentDir?: string;
  readonly input?: Partial<RunInput>;
  /** The issue file to seed (default: demo/issue-1.md) and extra issues to create. */
  readonly issueFile?: string;
  readonly extraIssues?: ReadonlyArray<{ readonly number: number; readonly title: string; readonly body: string }>;
  /** Changes the sample repository before the run starts (more commits on main, say). */
  readonly prepareRepo?: (repoPath: string) => Promise<void>;
  /** The worker's environment (default: PATH, HOME and the model server as ANTHROPIC_BASE_URL). */
  readonly workerEnv?: (modelUrl: string) => NodeJS.ProcessEnv;
  /** A tracing plugin for the worker (tests pass one with an in-memory exporter). */
  readonly tracing?: OpenTelemetryPlugin;
  /** The run's Workflow ID (default: a random one); a function of the sample repository's path. */
  readonly workflowId?: (repoPath: string, issue: number) => string | Promise<string>;
  /** Runs while the workflow is in flight (signals, queries). */
  readonly during?: (
    handle: WorkflowHandle<typeof runAgentWorkflow>,
    model: ModelServer,
    run: { readonly repoPath: string; readonly issue: number },
  ) => Promise<void>;
}

export interface ScenarioResult {
  readonly result: RunResult;
  readonly repoPath: string;
  readonly model: ModelServer;
  readonly workflowId: string;
  readonly handle: WorkflowHandle<typeof runAgentWorkflow>;
}

export async function runScenario(scenario: Scenario): Promise<ScenarioResult> {
  const env = await testEnv();
  const { repoPath, issue } = await createSampleRepo(
    scenario.issueFile === undefined ? {} : { issueFile: scenario.issueFile },
  );
  for (const extra of scenario.extraIssues ?? []) await writeLocalIssue(repoPath, extra);
  await scenario.prepareRepo?.(repoPath);
  const model = await createModelServer({ session: scenario.session });
  const taskQueue = `test-${randomUUID()}`;
  const workflowId =
    (await scenario.workflowId?.(repoPath, issue)) ?? `test-issue-${issue}-${randomUUID().slice(0, 8)}`;
  const deps = createDefaultDeps(
    scenario.workerEnv?.(model.url) ?? {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ANTHROPIC_BASE_URL: model.url,
    },
  );
  const { worker } = await createRunWorker({
    address: '',
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue,
    deps,
    ...(scenario.tracing === undefined ? { workflowBundle: await workflowBundle() } : { tracing: scenario.tracing }),
  });
  const artifactsDir = await mkdtemp(join(tmpdir(), 'issue-agent-artifacts-'));
  const input: RunInput = {
    issue,
    agentDir: scenario.agentDir ?? PROJECT_ROOT,
    repoPath,
    issueSource: 'local',
    // Workflow tests check the whole job, merge included (the default for local issues is branch).
    delivery: 'merge',
    artifactsDir,
    ...scenario.input,
  };
  const handle = await env.client.workflow.start(runAgentWorkflow, { taskQueue, workflowId, args: [input] });
  try {
    const result = await worker.runUntil(async () => {
      const during = scenario.during?.(handle, model, { repoPath, issue });
      const r = await readRunResult(handle);
      await during;
      return r;
    });
    return { result, repoPath, model, workflowId, handle };
  } finally {
    await model.close();
  }
}
