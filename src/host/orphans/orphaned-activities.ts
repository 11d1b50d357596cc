/**
 * Faster resume after a crash on this host. A step whose worker died (SIGKILL, OOM, a
 * closed terminal) stays "started" on the server until its heartbeat times out (60 s
 * by default): only then is it retried. A command that attaches to the run on the same
 * host can tell sooner: the attempt's worker identity is `<pid>@<host>` (the SDK's
 * default), and when that host is this one and that process no longer exists, the
 * attempt is failed by its id at once, so the retry (with the usual backoff) runs now.
 *
 * Conservative by design: another host, an unparseable identity or a pid that exists
 * (even reused by another program) leaves the attempt to its heartbeat timeout.
 */
import { hostname } from 'node:os';
import type { temporal } from '@temporalio/proto';
import { ApplicationFailure } from '@temporalio/common';
import { localPidOf, processAlive } from '../temporal/local-worker-identity.js';

/** PENDING_ACTIVITY_STATE_STARTED: a worker took the attempt and has not finished it. */
const STARTED = 2;

export interface OrphanPorts {
  readonly hostname: string;
  readonly isAlive: (pid: number) => boolean;
  readonly fail: (id: { workflowId: string; runId: string; activityId: string }, error: Error) => Promise<void>;
}

export interface RunDescription {
  readonly workflowId: string;
  readonly runId: string;
  readonly raw: { readonly pendingActivities?: readonly temporal.api.workflow.v1.IPendingActivityInfo[] | null };
}

export function defaultOrphanPorts(fail: OrphanPorts['fail']): OrphanPorts {
  return { hostname: hostname(), isAlive: processAlive, fail };
}

/**
 * Fails the started attempts of `run` whose worker was a process of this host that is
 * gone; returns `<activityType> (pid N)` for each one released.
 */
export async function releaseOrphanedActivities(run: RunDescription, ports: OrphanPorts): Promise<string[]> {
  const released: string[] = [];
  for (const pending of run.raw.pendingActivities ?? []) {
    if (Number(pending.state) !== STARTED || !pending.activityId) continue;
    const pid = localPidOf(pending.lastWorkerIdentity, ports.hostname);
    if (pid === undefined || ports.isAlive(pid)) continue;
    const what = `${pending.activityType?.name ?? 'activity'} (pid ${pid})`;
    try {
      await ports.fail(
        { workflowId: run.workflowId, runId: run.runId, activityId: pending.activityId },
        ApplicationFailure.retryable(
          `the worker running this attempt (pid ${pid} on ${ports.hostname}) is gone`,
          'WORKER_GONE',
        ),
      );
      released.push(what);
    } catch {
      // Already finished, timed out or retried meanwhile: nothing to release.
    }
  }
  return released;
}
