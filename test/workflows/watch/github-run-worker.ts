/**
 * The watch tests' worker: the real activities with the offline model server and the
 * GitHub REST stand-in (`acme/widgets`) behind the real Octokit client, on the test dev
 * server and a task queue of the test's own.
 */
import type { WorkerPair } from '../../../src/worker/worker-pair.js';
import { createDefaultDeps } from '../../../src/activities/deps.js';
import { createRunWorker } from '../../../src/worker/create-run-worker.js';
import { testEnv, workflowBundle } from '../../helpers/temporal-env.js';

export async function githubRunWorker(opts: {
  readonly modelUrl: string;
  readonly githubUrl: string;
  readonly token: string;
  readonly taskQueue: string;
}): Promise<WorkerPair> {
  const env = await testEnv();
  const deps = createDefaultDeps({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ANTHROPIC_BASE_URL: opts.modelUrl,
    GITHUB_TOKEN: opts.token,
    GITHUB_API_URL: opts.githubUrl,
    GITHUB_REPOSITORY: 'acme/widgets',
  });
  const { worker } = await createRunWorker({
    address: '',
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue: opts.taskQueue,
    deps,
    workflowBundle: await workflowBundle(),
  });
  return worker;
}
