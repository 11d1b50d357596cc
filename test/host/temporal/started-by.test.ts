/**
 * Two clients racing to start the same Workflow ID with USE_EXISTING both get a handle to
 * one run; only the client whose request started it is told so (start-run says the
 * base-drift note from that one only). On the real dev server: no worker is needed, the
 * run's first event is written when it starts.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Client } from '@temporalio/client';
import { startedByThisClient } from '../../../src/host/temporal/started-by.js';
import { teardownEnv, testEnv } from '../../helpers/temporal-env.js';

after(teardownEnv);

test('of two clients starting the same run, only the one whose request started it is told so', async () => {
  const env = await testEnv();
  const client = (identity: string): Client =>
    new Client({ connection: env.client.connection, namespace: env.namespace ?? 'default', identity });
  const first = client(`101@host-a`);
  const second = client(`202@host-b`);
  const workflowId = `started-by-${randomUUID()}`;
  const start = (c: Client) =>
    c.workflow.start('nothing', { taskQueue: 'nobody-polls', workflowId, workflowIdConflictPolicy: 'USE_EXISTING' });
  const a = await start(first);
  const b = await start(second);
  try {
    assert.equal(a.firstExecutionRunId, b.firstExecutionRunId, 'one run for both');
    assert.equal(await startedByThisClient(first, workflowId, a.firstExecutionRunId), true);
    assert.equal(await startedByThisClient(second, workflowId, b.firstExecutionRunId), false);
  } finally {
    await a.terminate('test over');
  }
});
