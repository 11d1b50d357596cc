/**
 * A retried activity resets its workflow's sticky queue first (src/worker/sticky-reset.ts),
 * so the workflow task after it goes to the normal queue: a run whose worker was killed
 * mid-step does not wait out the dead worker's sticky queue (10 s) before its next step.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Context as ActivityContext } from '@temporalio/activity';
import { Context } from '@temporalio/activity';
import proto from '@temporalio/proto';
import { Worker, type WorkerInterceptors } from '@temporalio/worker';
import {
  resetStickyQueueOf,
  stickyResetInbound,
  stickyResetInterceptor,
  type WorkflowExecutionRef,
} from '../../src/worker/sticky-reset.js';
import { teardownEnv, testEnv } from '../helpers/temporal-env.js';

after(teardownEnv);

type Info = ActivityContext['info'];

function fakeContext(attempt: number, warnings: string[]): Pick<ActivityContext, 'info' | 'log'> {
  const info = { attempt, activityType: 'queryStep', workflowExecution: { workflowId: 'w', runId: 'r' } };
  const log = { warn: (message: string) => warnings.push(message) };
  return { info: info as unknown as Info, log: log as unknown as ActivityContext['log'] };
}

test('a first attempt runs without a reset; a retry resets its workflow execution first', async () => {
  const events: string[] = [];
  const reset = async (e: WorkflowExecutionRef) => void events.push(`reset ${e.workflowId}/${e.runId}`);
  const next = async () => (events.push('run'), 'done');
  const input = { args: [], headers: {} };
  assert.equal(await stickyResetInbound(fakeContext(1, []), reset).execute!(input, next), 'done');
  assert.deepEqual(events, ['run']);
  events.length = 0;
  assert.equal(await stickyResetInbound(fakeContext(2, []), reset).execute!(input, next), 'done');
  assert.deepEqual(events, ['reset w/r', 'run']);
});

test('a failed or unanswered reset is logged and the retry runs anyway', async () => {
  const warnings: string[] = [];
  const input = { args: [], headers: {} };
  const failing = async () => {
    throw new Error('unavailable');
  };
  assert.equal(await stickyResetInbound(fakeContext(2, warnings), failing).execute!(input, async () => 1), 1);
  const hanging = () => new Promise<void>(() => undefined);
  assert.equal(await stickyResetInbound(fakeContext(3, warnings), hanging, 50).execute!(input, async () => 2), 2);
  assert.equal(warnings.length, 2);
  assert.match(warnings[0]!, /sticky queue/);
});

const STICKY = proto.temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_STICKY;

/** Runs the fixture workflow (one activity, its first attempt fails) and returns the kind of the queue of the workflow task after the retry. */
async function queueAfterRetry(interceptors: WorkerInterceptors | undefined): Promise<number | null | undefined> {
  const env = await testEnv();
  const taskQueue = `sticky-${randomUUID()}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue,
    workflowsPath: fileURLToPath(new URL('../fixtures/workflows/retried-activity.ts', import.meta.url)),
    activities: {
      flaky: async () => {
        if (Context.current().info.attempt === 1) throw new Error('first attempt fails');
        return Context.current().info.attempt;
      },
    },
    ...(interceptors === undefined ? {} : { interceptors }),
  });
  const handle = await env.client.workflow.start('retriedActivity', { taskQueue, workflowId: taskQueue });
  assert.equal(await worker.runUntil(handle.result()), 2);
  const events = (await handle.fetchHistory()).events ?? [];
  const completed = events.findIndex((e) => e.activityTaskCompletedEventAttributes);
  const scheduled = events.slice(completed).find((e) => e.workflowTaskScheduledEventAttributes);
  return scheduled?.workflowTaskScheduledEventAttributes?.taskQueue?.kind;
}

test('after a retried activity the workflow task goes to the normal queue, not the sticky one', async () => {
  const env = await testEnv();
  // Without the reset the server uses the sticky queue: the assertion below can fail.
  assert.equal(await queueAfterRetry(undefined), STICKY);
  const reset = resetStickyQueueOf(env.nativeConnection, env.namespace ?? 'default');
  const kind = await queueAfterRetry({ activity: [stickyResetInterceptor(reset)] });
  assert.notEqual(kind, STICKY);
});
