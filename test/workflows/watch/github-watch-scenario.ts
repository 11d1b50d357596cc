/**
 * What every watcher test sets up: the GitHub REST stand-in with the demo's issue #1
 * labelled `agent`, the demo repository with a bare `origin` holding main, the scripted
 * model server, a worker on a task queue of the test's own, and the watcher's input
 * (delivery by PR, poll every 500 ms). `close` stops the model and the stand-in.
 * `watcherCaughtUp` and `signalsReceived` are how a test asserts that a comment did NOT
 * act: the watcher has read it and done all it would do, and the run's history holds
 * no signal from it (never a fixed sleep).
 */
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import type { WorkflowHandle } from '@temporalio/client';
import type { WatchInput } from '../../../src/contracts/watch.js';
import { loadAgentDefinitionOrThrow } from '../../../src/definition/load/load-agent-definition.js';
import { createModelServer, type ModelServer } from '../../../src/dev/model-server/model-server.js';
import type { SessionScript } from '../../../src/dev/model-server/session-script.js';
import { createSampleRepo } from '../../../src/dev/sample-repo.js';
import { PROJECT_ROOT } from '../../../src/host/project-root.js';
import type { WorkerPair } from '../../../src/worker/worker-pair.js';
import { runWatchWorkflow } from '../../../src/workflows/watch/run-watch.js';
import { watchProgressQuery } from '../../../src/workflows/watch/watch-messages.js';
import { startFakeGitHubServer, type FakeGitHubServer, type FakeIssue } from '../../helpers/fake-github-server.js';
import { testEnv } from '../../helpers/temporal-env.js';
import { until } from '../../helpers/until.js';
import { githubRunWorker } from './github-run-worker.js';

export interface GitHubWatchScenario {
  readonly server: FakeGitHubServer;
  readonly model: ModelServer;
  readonly worker: WorkerPair;
  readonly repoPath: string;
  /** The bare `origin` the runs push to. */
  readonly remote: string;
  readonly input: WatchInput;
  readonly taskQueue: string;
  /** The Workflow ID of issue #1's run. */
  readonly runId: string;
  issue(): FakeIssue;
  /** Starts the watcher with `input` on the scenario's task queue (serve it inside `worker.runUntil`). */
  startWatcher(): Promise<WorkflowHandle<typeof runWatchWorkflow>>;
  close(): Promise<void>;
}

export async function githubWatchScenario(options: {
  readonly name: string;
  readonly token: string;
  readonly session: SessionScript | string;
  readonly input?: Partial<WatchInput>;
}): Promise<GitHubWatchScenario> {
  const definition = await loadAgentDefinitionOrThrow(PROJECT_ROOT);
  const server = await startFakeGitHubServer({ token: options.token });
  server.addIssue({
    number: 1,
    title: 'sum() subtracts instead of adding',
    body: '`sum(2, 3)` returns `-1`; it should return `5`. The test in `test/sum.test.js` fails.',
    labels: ['agent', 'bug'],
  });
  const { repoPath } = await createSampleRepo({ issue: 1 });
  const remote = await realpath(await mkdtemp(join(tmpdir(), 'watch-remote-')));
  await execa('git', ['init', '--quiet', '--bare', '--initial-branch=main', remote]);
  await execa('git', ['-C', repoPath, 'remote', 'add', 'origin', remote]);
  await execa('git', ['-C', repoPath, 'push', '--quiet', 'origin', 'main']);
  const model = await createModelServer({ session: options.session });
  const taskQueue = `${options.name}-${Date.now()}`;
  const worker = await githubRunWorker({ modelUrl: model.url, githubUrl: server.url, token: options.token, taskQueue });
  const repoId = `${options.name}-${Date.now()}`;
  const input: WatchInput = {
    agentName: definition.name,
    agentDir: PROJECT_ROOT,
    repoPath,
    issueSource: 'github',
    repoId,
    artifactsDir: await mkdtemp(join(tmpdir(), 'watch-artifacts-')),
    delivery: 'pr',
    label: 'agent',
    mention: '@issue-agent',
    concurrency: 1,
    pollIntervalMs: 500,
    ...options.input,
  };
  return {
    server,
    model,
    worker,
    repoPath,
    remote,
    input,
    taskQueue,
    runId: `${repoId}/${definition.name}/issue-1`,
    issue: () => server.issue(1)!,
    async startWatcher() {
      const env = await testEnv();
      return env.client.workflow.start(runWatchWorkflow, { taskQueue, workflowId: `${repoId}/watch`, args: [input] });
    },
    async close() {
      await model.close();
      await server.close();
    },
  };
}

/**
 * Resolves once the watcher has read the repository after this call and acted on all it
 * read. A poll is counted when its read returns, before its actions: the read of the
 * second poll from now starts after this call, and its actions are done by the third.
 */
export async function watcherCaughtUp(watcher: WorkflowHandle): Promise<void> {
  const polls = async (): Promise<number> => (await watcher.query(watchProgressQuery)).polls;
  const from = await polls();
  await until(
    'the watcher to read and act past now',
    async () => ((await polls()) >= from + 3 ? true : undefined),
    60_000,
    100,
  );
}

/** The names of the signals the workflow of `handle` has received, from its history. */
export async function signalsReceived(handle: WorkflowHandle): Promise<string[]> {
  const { events } = await handle.fetchHistory();
  return (events ?? []).flatMap((e) => e.workflowExecutionSignaledEventAttributes?.signalName ?? []);
}
