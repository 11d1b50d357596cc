/**
 * Releasing the attempts of a dead local worker: only a started attempt whose identity is
 * `<pid>@<this host>` with that pid gone is failed (retryably); anything else is left to
 * its heartbeat timeout.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import {
  releaseOrphanedActivities,
  type OrphanPorts,
  type RunDescription,
} from '../../src/host/orphans/orphaned-activities.js';
import { isGoneLocalWorker, localPidOf, processAlive } from '../../src/host/temporal/local-worker-identity.js';

const STARTED = 2;
const SCHEDULED = 1;

function run(pending: Array<{ id: string; state: number; identity: string }>): RunDescription {
  return {
    workflowId: 'repo/issue-agent/issue-1',
    runId: 'run-1',
    raw: {
      pendingActivities: pending.map((p) => ({
        activityId: p.id,
        state: p.state,
        lastWorkerIdentity: p.identity,
        activityType: { name: 'queryStep' },
      })),
    },
  };
}

function ports(alive: ReadonlySet<number>): OrphanPorts & { failed: Array<{ activityId: string; message: string }> } {
  const failed: Array<{ activityId: string; message: string }> = [];
  return {
    hostname: 'here',
    isAlive: (pid) => alive.has(pid),
    fail: async (id, error) => {
      failed.push({ activityId: id.activityId, message: error.message });
    },
    failed,
  };
}

test('only a started attempt of a gone process on this host is released', async () => {
  const p = ports(new Set([200]));
  const released = await releaseOrphanedActivities(
    run([
      { id: 'dead-here', state: STARTED, identity: '100@here' },
      { id: 'alive-here', state: STARTED, identity: '200@here' },
      { id: 'elsewhere', state: STARTED, identity: '100@there' },
      { id: 'scheduled', state: SCHEDULED, identity: '100@here' },
      { id: 'custom-identity', state: STARTED, identity: 'my-worker' },
    ]),
    p,
  );
  assert.deepEqual(released, ['queryStep (pid 100)']);
  assert.deepEqual(
    p.failed.map((f) => f.activityId),
    ['dead-here'],
  );
  assert.match(p.failed[0]!.message, /pid 100 on here\) is gone/);
});

test('an attempt that finished meanwhile (the fail is refused) is not reported', async () => {
  const p: OrphanPorts = {
    hostname: 'here',
    isAlive: () => false,
    fail: async () => {
      throw new Error('activity not found');
    },
  };
  assert.deepEqual(await releaseOrphanedActivities(run([{ id: 'a', state: STARTED, identity: '100@here' }]), p), []);
});

test('identities: <pid>@<host> on this host only', () => {
  assert.equal(localPidOf('4242@vm', 'vm'), 4242);
  assert.equal(localPidOf('4242@other', 'vm'), undefined);
  assert.equal(localPidOf('worker-7', 'vm'), undefined);
  assert.equal(localPidOf('1@vm', 'vm'), undefined, 'never pid 1');
  assert.equal(localPidOf(undefined, 'vm'), undefined);
});

test('processAlive: this process is, an exited child is not', () => {
  assert.equal(processAlive(process.pid), true);
  const child = spawnSync('sh', ['-c', 'echo $$'], { encoding: 'utf8' });
  const gone = Number(child.stdout.trim());
  assert.equal(processAlive(gone), false);
  assert.equal(isGoneLocalWorker(`${gone}@vm`, 'vm'), true);
  assert.equal(isGoneLocalWorker(`${process.pid}@vm`, 'vm'), false);
  assert.equal(isGoneLocalWorker(`${gone}@elsewhere`, 'vm'), false);
});
