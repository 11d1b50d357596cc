/**
 * Who took a run: start-run, finding a worker on the queue, says which one serves its run
 * (another start-run serving its own run takes it too, with that command's model
 * settings). On the real dev server: the identity of the worker that started the
 * latest workflow task, none before a worker polls.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import { workflowTaskTaker, type CliTemporal } from '../../../src/host/temporal/temporal-client.js';
import { teardownEnv, testEnv, workflowBundle } from '../../helpers/temporal-env.js';
import { until } from '../../helpers/until.js';

after(teardownEnv);

test('the taker is the identity of the worker that started the workflow task; none before', async () => {
  const env = await testEnv();
  const taskQueue = `taker-${randomUUID()}`;
  const workflowId = `taker-${randomUUID()}`;
  const cli = { client: env.client } as unknown as CliTemporal;
  // A type the worker does not know: it still starts the task (and fails it), which is what names it.
  const handle = await env.client.workflow.start('notRegisteredHere', { taskQueue, workflowId });
  try {
    assert.equal(await workflowTaskTaker(cli, workflowId), undefined, 'nobody polled yet');
    const worker = await Worker.create({
      connection: env.nativeConnection,
      namespace: env.namespace ?? 'default',
      taskQueue,
      identity: '303@host-c',
      workflowBundle: await workflowBundle(),
    });
    await worker.runUntil(
      until('a worker to take the workflow task', () => workflowTaskTaker(cli, workflowId), 30_000),
    );
    assert.equal(await workflowTaskTaker(cli, workflowId), '303@host-c');
    assert.equal(await workflowTaskTaker(cli, `no-such-${randomUUID()}`), undefined, 'an unknown run names nobody');
  } finally {
    await handle.terminate('test over');
  }
});
