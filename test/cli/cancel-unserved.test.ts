/**
 * `cancel` of a run no worker serves: the cancel is recorded, but nothing acts on it until
 * a worker polls the run's queue. The stranger saw "the running step stops" and then, 30
 * minutes later, `status` still RUNNING: the command says a worker is needed, and which.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createSampleRepo } from '../../src/dev/sample-repo.js';
import { repoIdentity, workflowIdFor } from '../../src/host/repo-identity.js';
import { serverAddress, teardownEnv, testEnv } from '../helpers/temporal-env.js';
import { assertNoStack, describeResult, runCli } from './cli-process.js';

let env: TestWorkflowEnvironment;
before(async () => {
  env = await testEnv();
});
after(teardownEnv);

test('cancel of a run no worker serves says it stays RUNNING until a worker of its queue starts', async () => {
  const { repoPath } = await createSampleRepo();
  const taskQueue = `cancel-unserved-${randomUUID()}`;
  const workflowId = workflowIdFor((await repoIdentity(repoPath)).id, 'issue-agent', 1);
  // Started, never served: no worker polls this queue.
  const handle = await env.client.workflow.start('runAgentWorkflow', { taskQueue, workflowId, args: [{}] });
  try {
    const cancel = await runCli(['cancel', '--issue', '1', '--repo', repoPath], {
      env: { TEMPORAL_ADDRESS: serverAddress(env), TEMPORAL_TASK_QUEUE: taskQueue, LOG_LEVEL: 'ERROR' },
      timeoutMs: 60_000,
    });
    assert.equal(cancel.code, 0, describeResult(cancel));
    assertNoStack(cancel);
    assert.match(cancel.stdout, /no worker serves its task queue .* stays RUNNING until one does/);
    assert.ok(cancel.stdout.includes(`TEMPORAL_TASK_QUEUE=${taskQueue}`), cancel.stdout);
    assert.equal((await handle.describe()).status.name, 'RUNNING');
  } finally {
    await handle.terminate('test cleanup').catch(() => undefined);
    await rm(repoPath, { recursive: true, force: true });
  }
});
