/**
 * The floor phase: what Temporal alone costs per step on this server, worker settings
 * and machine. The floor workflow awaits one no-op activity per step: on the workflow's
 * queue (`floorMsPerStep`, the definition), on the worker's host queue as a model
 * step does (`floorHostQueueMsPerStep`), and as a local activity (`floorLocalMsPerStep`).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@temporalio/client';
import { bundleWorkflowCode } from '@temporalio/worker';
import { hostTaskQueueName } from '../../src/worker/create-run-worker.js';
import { median, timeBreakdown, withTimeout, type TimeBreakdown } from './durable.js';
import type { FloorInput } from './floor-workflow.js';
import { spawnWorker, type WorkerProcess } from './worker-process.js';

const FLOOR_WORKFLOW = fileURLToPath(new URL('./floor-workflow.ts', import.meta.url));

export interface FloorOptions {
  readonly client: Client;
  readonly address: string;
  readonly dir: string;
  readonly steps: number;
  readonly reps: number;
  readonly uniq: (prefix: string) => string;
  readonly track: (worker: WorkerProcess) => WorkerProcess;
}

export interface FloorResult {
  readonly figures: Record<string, number>;
  readonly breakdown: TimeBreakdown;
}

const round1 = (v: number): number => Math.round(v * 10) / 10;

export async function floorPhase(options: FloorOptions): Promise<FloorResult> {
  const { client, steps, reps, uniq } = options;
  const { code } = await bundleWorkflowCode({
    workflowsPath: FLOOR_WORKFLOW,
    logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} } as never,
  });
  const floorBundlePath = join(options.dir, 'floor-bundle.js');
  await writeFile(floorBundlePath, code);
  const taskQueue = uniq('floor');
  const hostQueue = hostTaskQueueName(taskQueue);
  const worker = options.track(
    spawnWorker({ address: options.address, taskQueue, modelUrl: 'http://127.0.0.1:9', floorBundlePath }),
  );
  const run = async (input: FloorInput): Promise<{ perStepMs: number; id: string }> => {
    const id = uniq('floor-run');
    const started = performance.now();
    const handle = await client.workflow.start('floorWorkflow', { taskQueue, workflowId: id, args: [input] });
    const done = await withTimeout(handle.result() as Promise<number>, 60_000 + input.steps * 2000, 'floor run');
    if (done !== input.steps) throw new Error(`floor run did ${done} of ${input.steps} steps`);
    return { perStepMs: (performance.now() - started) / input.steps, id };
  };
  try {
    await withTimeout(worker.ready, 90_000, 'floor worker start');
    await run({ steps: 3 });
    const same: number[] = [];
    const host: number[] = [];
    const local: number[] = [];
    const ids: string[] = [];
    for (let rep = 0; rep < reps; rep += 1) {
      const a = await run({ steps });
      same.push(a.perStepMs);
      ids.push(a.id);
      host.push((await run({ steps, taskQueue: hostQueue })).perStepMs);
      local.push((await run({ steps, local: true })).perStepMs);
    }
    const breakdown = await timeBreakdown(client.workflow.getHandle(ids[Math.floor(ids.length / 2)]!));
    return {
      figures: {
        floorMsPerStep: round1(median(same)),
        floorHostQueueMsPerStep: round1(median(host)),
        floorLocalMsPerStep: round1(median(local)),
        floorSteps: steps,
        floorReps: reps,
      },
      breakdown,
    };
  } finally {
    await worker.kill('SIGKILL');
  }
}
