/**
 * `issue-agent worker` (`npm run worker`): serves runs on the task queue until
 * SIGINT/SIGTERM. The composition root: environment → ports → activities → worker.
 */
import { ensureTemporal } from '../../host/temporal/ensure-temporal.js';
import { DEFAULT_TASK_QUEUE } from '../../host/temporal/task-queue.js';
import { commandFlags } from '../flags/command-specs.js';
import { optionalString } from '../flags/parse-flags.js';
import { applyHostFlags, stateDirFromEnv } from '../../host/host-identity.js';
import { resolveUserPath } from '../run-target.js';
import { printLine } from '../../host/terminal-text.js';
import { setupConnectPorts } from '../../activities/tools/setup-connect-ports.js';
import { cacheScopeFromEnv } from '../../activities/environment/cache-scope.js';
import { sandboxUidFromEnv } from '../../activities/tools/sandbox-policy.js';

export async function workerCommand(argv: readonly string[]): Promise<number> {
  const flags = commandFlags('worker', argv);
  if (flags === undefined) return 0;
  // Read by the host queue's name and by the activities (this worker's clones and worktrees).
  const stateDir = optionalString(flags, 'state-dir');
  applyHostFlags({
    ...(optionalString(flags, 'host-id') === undefined ? {} : { hostId: optionalString(flags, 'host-id')! }),
    ...(stateDir === undefined ? {} : { stateDir: resolveUserPath(stateDir) }),
  });
  // Settings a run reads only when it first needs them: wrong, they fail here, naming the variable.
  setupConnectPorts(process.env);
  cacheScopeFromEnv(process.env);
  sandboxUidFromEnv(process.env);
  // The spawner helper (a small node process, ~0.1 s to start) boots while the modules load:
  // the first git call of a resumed step would otherwise wait for it.
  void import('../../activities/process/spawner/process-spawner.js').then(
    (m) => m.sharedSpawner().warm(),
    () => undefined, // the first git call reports it
  );
  // The server check (network) overlaps loading the worker's modules (~0.8 s of CPU).
  const workerModule = import('../../worker/create-run-worker.js');
  workerModule.then((m) => m.preloadActivities()).catch(() => undefined); // reported by createRunWorker
  const [target, { createRunWorker }] = await Promise.all([ensureTemporal(), workerModule]);
  const taskQueue = process.env.TEMPORAL_TASK_QUEUE ?? DEFAULT_TASK_QUEUE;
  const { worker, connection } = await createRunWorker({
    address: target.address,
    namespace: target.namespace,
    taskQueue,
  });
  // The host queue polls at once (a resumed step waits there); the line once both poll.
  const running = worker.run();
  await worker.ready.then(
    () => {
      printLine(
        process.stdout,
        `worker polling ${taskQueue} and ${worker.hostTaskQueue} (this host's worktrees) on ${target.address} (namespace ${target.namespace}); state dir ${stateDirFromEnv()}; Web UI ${target.uiUrl}`,
      );
      // After a crash on this host: the dead process's started steps run again now.
      void import('../../host/orphans/release-orphans-of-queue.js')
        .then((m) => m.releaseOrphansOfQueue(target, taskQueue))
        .then(
          (lines) => lines.forEach((line) => printLine(process.stdout, line)),
          () => undefined, // best effort: the steps then wait for their heartbeat timeout
        );
    },
    () => undefined, // run() rejects with the same error
  );
  try {
    await running;
  } finally {
    await connection.close();
  }
  return 0;
}
