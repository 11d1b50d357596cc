/**
 * Runs a pipeline end to end for a test: the demo's sample repository with one local
 * issue carrying the pipeline's labels, the tiny agents of pipeline-agents.ts, the
 * offline model server playing their answers, and an in-process worker with the real
 * activities on the real dev server. The issue file is read back for the assertions.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { createDefaultDeps } from '../../../src/activities/deps.js';
import { localIssuePath, writeLocalIssue } from '../../../src/activities/issues/local-issue-store.js';
import { parseIssueFile } from '../../../src/activities/issues/issue-file.js';
import type { PipelineDefinition } from '../../../src/contracts/pipeline.js';
import type { PipelineInput, PipelineResult } from '../../../src/contracts/pipeline-run.js';
import { createModelServer, type ModelServer } from '../../../src/dev/model-server/model-server.js';
import type { SessionRule } from '../../../src/dev/model-server/session-script.js';
import { createSampleRepo } from '../../../src/dev/sample-repo.js';
import { createRunWorker } from '../../../src/worker/create-run-worker.js';
import { runPipelineWorkflow } from '../../../src/workflows/pipeline/run-pipeline.js';
import { testEnv, workflowBundle } from '../../helpers/temporal-env.js';

export const ISSUE = 2;

export interface IssueOnDisk {
  readonly state: string;
  readonly labels: readonly string[];
  readonly commentKeys: readonly string[];
  readonly text: string;
}

export async function readIssueFile(repoPath: string, issue = ISSUE): Promise<IssueOnDisk> {
  const path = localIssuePath(repoPath, issue);
  const text = await readFile(path, 'utf8');
  const file = parseIssueFile(text, path);
  return { state: file.state, labels: file.labels, commentKeys: file.commentKeys, text };
}

export async function pipelineRepo(labels: readonly string[]): Promise<string> {
  const { repoPath } = await createSampleRepo({ issue: 1 });
  await writeLocalIssue(repoPath, {
    number: ISSUE,
    title: 'Support subtraction',
    body: 'Add `sub(a, b)` beside `sum`.',
    labels,
  });
  return repoPath;
}

export async function pipelineInput(
  repoPath: string,
  definition: PipelineDefinition,
  extra: Partial<PipelineInput> = {},
): Promise<PipelineInput> {
  return {
    issue: ISSUE,
    definition,
    repoPath,
    issueSource: 'local',
    artifactsDir: await mkdtemp(join(tmpdir(), 'pipeline-artifacts-')),
    ...extra,
  };
}

/** Executions of the run workflow that this pipeline started, oldest first. */
export async function childrenOf(
  client: Client,
  pipelineId: string,
): Promise<{ workflowId: string; status: string }[]> {
  const out: { workflowId: string; status: string; start: number }[] = [];
  for await (const w of client.workflow.list({ query: `WorkflowType = 'runAgentWorkflow'` }))
    if (w.parentExecution?.workflowId === pipelineId)
      out.push({ workflowId: w.workflowId, status: w.status.name, start: w.startTime.getTime() });
  return out.sort((a, b) => a.start - b.start).map(({ workflowId, status }) => ({ workflowId, status }));
}

export interface PipelineRun {
  readonly result: PipelineResult;
  readonly model: ModelServer;
  readonly workflowId: string;
}

export async function runPipelineScenario(
  repoPath: string,
  definition: PipelineDefinition,
  rules: readonly SessionRule[],
  options: {
    readonly input?: Partial<PipelineInput>;
    /** Runs while the pipeline is in flight (signals, queries). */
    readonly during?: (handle: WorkflowHandle<typeof runPipelineWorkflow>, model: ModelServer) => Promise<void>;
  } = {},
): Promise<PipelineRun> {
  const env = await testEnv();
  const model = await createModelServer({ session: { name: 'pipeline', rules: [...rules] } });
  const taskQueue = `pipeline-${randomUUID()}`;
  const workflowId = `test-pipeline-${randomUUID().slice(0, 8)}/issue-${ISSUE}`;
  const deps = createDefaultDeps({ PATH: process.env.PATH, HOME: process.env.HOME, ANTHROPIC_BASE_URL: model.url });
  const { worker } = await createRunWorker({
    address: '',
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue,
    deps,
    workflowBundle: await workflowBundle(),
  });
  try {
    const handle = await env.client.workflow.start(runPipelineWorkflow, {
      taskQueue,
      workflowId,
      args: [
        await pipelineInput(repoPath, definition, { repoId: `test-${randomUUID().slice(0, 8)}`, ...options.input }),
      ],
    });
    const result = await worker.runUntil(async () => {
      const during = options.during?.(handle, model);
      const r = await handle.result();
      await during;
      return r;
    });
    return { result, model, workflowId };
  } finally {
    await model.close();
  }
}
