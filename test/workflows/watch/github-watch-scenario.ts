/**
 * What every watcher test sets up: the GitHub REST stand-in with the demo's issue #1
 * labelled `agent`, the demo repository with a bare `origin` holding main, the scripted
 * model server, a worker on a task queue of the test's own, and the watcher's input
 * (delivery by PR, poll every 500 ms). `close` stops the model and the stand-in.
 */
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import type { WatchInput } from '../../../src/contracts/watch.js';
import { loadAgentDefinitionOrThrow } from '../../../src/definition/load/load-agent-definition.js';
import { createModelServer, type ModelServer } from '../../../src/dev/model-server/model-server.js';
import type { SessionScript } from '../../../src/dev/model-server/session-script.js';
import { createSampleRepo } from '../../../src/dev/sample-repo.js';
import { PROJECT_ROOT } from '../../../src/host/project-root.js';
import type { WorkerPair } from '../../../src/worker/worker-pair.js';
import { startFakeGitHubServer, type FakeGitHubServer, type FakeIssue } from '../../helpers/fake-github-server.js';
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
    async close() {
      await model.close();
      await server.close();
    },
  };
}
