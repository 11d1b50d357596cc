/**
 * A run of the default playbook on the demo repository, served by a worker in a child
 * process that a test can SIGKILL and replace (the durable-wait tests: a question, a budget
 * pause, a plan to approve; the crash tests: mid-step, inside the boundary merge), with its
 * scripted model server. `close` kills what is left.
 */
import type { ChildProcess } from 'node:child_process';
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
import { serverAddress, testEnv } from '../helpers/temporal-env.js';
import { startWorkerProcess } from '../helpers/worker-process.js';

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
  const workerEnv = {
    TEMPORAL_ADDRESS: serverAddress(env),
    TEMPORAL_TASK_QUEUE: taskQueue,
    ANTHROPIC_BASE_URL: model.url,
    LOG_LEVEL: 'ERROR',
  };
  let worker: ChildProcess | undefined = startWorkerProcess({ ...workerEnv, ...firstWorkerEnv });
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
  const killWorker = async (): Promise<void> => {
    const dying = worker;
    worker = undefined;
    dying?.kill('SIGKILL');
    if (dying !== undefined && dying.exitCode === null) await new Promise((resolve) => dying.once('exit', resolve));
  };
  const startWorker = (): void => {
    worker = startWorkerProcess(workerEnv);
  };
  return {
    handle,
    model,
    repoPath,
    issue,
    killWorker,
    startWorker,
    async restartWorker() {
      await killWorker();
      await sleep(1000);
      startWorker();
    },
    async close() {
      worker?.kill('SIGKILL');
      await model.close();
    },
  };
}
