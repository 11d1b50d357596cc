/**
 * A worker meeting BadSearchAttributes never leaves the run hanging: on a real dev server
 * started without our attributes, a worker process registers them at start; one is then
 * removed behind its back and a run is started (not through our CLI, which would register
 * it again). The run's first upsert is rejected by the server; the worker's guard sees the
 * rejection, registers the attribute again, and the run completes instead of looping.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createModelServer, type ModelServer } from '../../src/dev/model-server/model-server.js';
import type { SessionScript } from '../../src/dev/model-server/session-script.js';
import { PROJECT_ROOT } from '../../src/host/project-root.js';
import { createSampleRepo } from '../../src/dev/sample-repo.js';
import { runAgentWorkflow } from '../../src/workflows/run-agent.js';
import type { RunInput } from '../../src/contracts/run.js';
import { readRunResult } from '../../src/host/run-result.js';
import { bareTestEnv, serverAddress } from '../helpers/temporal-env.js';
import { waitFor } from '../helpers/worker-process.js';

let env: TestWorkflowEnvironment;
let model: ModelServer;
let worker: ChildProcess | undefined;
const cleanup: string[] = [];

before(async () => {
  env = await bareTestEnv();
  model = await createModelServer({
    session: JSON.parse(await readFile(join(PROJECT_ROOT, 'demo', 'session.json'), 'utf8')) as SessionScript,
  });
});

after(async () => {
  worker?.kill('SIGKILL');
  await model?.close();
  for (const dir of cleanup) await rm(dir, { recursive: true, force: true });
  await env?.teardown();
});

async function has(name: string): Promise<boolean> {
  const { customAttributes } = await env.connection.operatorService.listSearchAttributes({ namespace: 'default' });
  return Object.hasOwn(customAttributes ?? {}, name);
}

test(
  'an attribute removed under a running worker: the guard registers it again and the run completes',
  { timeout: 300_000 },
  async () => {
    const taskQueue = `bad-sa-${randomUUID()}`;
    const { ANTHROPIC_API_KEY: _k, ...base } = process.env;
    let stderr = '';
    worker = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
      cwd: PROJECT_ROOT,
      env: {
        ...base,
        NODE_TEST_CONTEXT: '',
        TEMPORAL_ADDRESS: serverAddress(env),
        TEMPORAL_TASK_QUEUE: taskQueue,
        ANTHROPIC_BASE_URL: model.url,
        LOG_LEVEL: 'WARN',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    worker.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    await waitFor(
      () => /registered search attributes .*RunPhase/.test(stderr),
      60_000,
      'the worker to register the attributes',
    );
    assert.ok(await has('RunPhase'));
    await env.connection.operatorService.removeSearchAttributes({
      namespace: 'default',
      searchAttributes: ['RunPhase'],
    });
    assert.equal(await has('RunPhase'), false, 'removed behind the worker');

    const { repoPath, issue } = await createSampleRepo();
    cleanup.push(repoPath);
    const artifactsDir = await mkdtemp(join(tmpdir(), 'issue-agent-artifacts-'));
    cleanup.push(artifactsDir);
    const input: RunInput = {
      issue,
      agentDir: PROJECT_ROOT,
      repoPath,
      issueSource: 'local',
      delivery: 'branch',
      artifactsDir,
    };
    const handle = await env.client.workflow.start(runAgentWorkflow, {
      taskQueue,
      workflowId: `bad-sa-${randomUUID()}`,
      args: [input],
    });
    const result = await readRunResult(handle);
    assert.equal(result.outcome, 'success');
    assert.match(stderr, /BadSearchAttributes/, 'the worker met the rejection');
    assert.match(stderr, /registered search attributes RunPhase on namespace default .*retry/);
    assert.ok(await has('RunPhase'));
  },
);
