/**
 * A run of the default playbook on the demo repository, served by a worker in a child
 * process that a test can SIGKILL and replace (the durable-wait tests: a question, a budget
 * pause, a plan to approve; the crash tests: mid-step, inside the boundary merge), with its
 * scripted model server. `close` kills what is left.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WorkflowHandle } from '@temporalio/client';
import type { RunInput } from '../../src/contracts/run.js';
import { createModelServer, type ModelServer } from '../../src/dev/model-server/model-server.js';
import type { SessionScript } from '../../src/dev/model-server/session-script.js';
import { createSampleRepo } from '../../src/dev/sample-repo.js';
import { PROJECT_ROOT } from '../../src/host/project-root.js';
import { runAgentWorkflow } from '../../src/workflows/run-agent.js';
import { testEnv } from '../helpers/temporal-env.js';
import { replaceableWorker } from '../helpers/worker-process.js';

export interface RestartableRun {
  readonly handle: WorkflowHandle<typeof runAgentWorkflow>;
  readonly model: ModelServer;
  readonly repoPath: string;
  readonly issue: number;
  /** SIGKILLs the worker and waits for it to be gone. */
  killWorker(): Promise<void>;
  /** Starts a new worker (with the test's environment, never `firstWorkerEnv`). */
  startWorker(): void;
  /** SIGKILLs the worker, waits for it to be gone, and starts a new one. */
  restartWorker(): Promise<void>;
  close(): Promise<void>;
}

export async function restartableRun(
  name: string,
  session: SessionScript | string,
  input: Partial<RunInput> = {},
  /** What the first worker's environment has on top (e.g. a PATH with a pausing git). */
  firstWorkerEnv: Record<string, string> = {},
): Promise<RestartableRun> {
  const env = await testEnv();
  const model = await createModelServer({ session });
  const { repoPath, issue } = await createSampleRepo();
  const taskQueue = `${name}-${Date.now()}`;
  const worker = replaceableWorker(env, taskQueue, model.url, firstWorkerEnv);
  const handle = await env.client.workflow.start(runAgentWorkflow, {
    taskQueue,
    workflowId: `${name}-${Date.now()}`,
    args: [
      {
        issue,
        agentDir: PROJECT_ROOT,
        repoPath,
        issueSource: 'local',
        delivery: 'merge',
        artifactsDir: await mkdtemp(join(tmpdir(), 'artifacts-')),
        ...input,
      },
    ],
  });
  return {
    handle,
    model,
    repoPath,
    issue,
    killWorker: () => worker.kill(),
    startWorker: () => worker.start(),
    async restartWorker() {
      await worker.kill();
      await sleep(1000);
      worker.start();
    },
    async close() {
      worker.close();
      await model.close();
    },
  };
}
