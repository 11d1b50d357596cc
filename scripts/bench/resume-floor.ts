/**
 * The resume floor: spawn → polling of the least worker that could take a retried
 * activity (resume-floor-worker.mjs: Node, the Temporal SDK, a connection, an
 * activity-only worker). resumeMs minus this is what our own start and the resumed
 * step's first request cost.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/host/project-root.js';

const FLOOR_WORKER = join(PROJECT_ROOT, 'scripts', 'bench', 'resume-floor-worker.mjs');

async function once(address: string): Promise<number> {
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [FLOOR_WORKER], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TEMPORAL_ADDRESS: address },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    return await new Promise<number>((resolve, reject) => {
      let buffer = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('utf8');
        if (/^READY \d+/m.test(buffer)) resolve(performance.now() - spawnedAt);
      });
      void exited.then(() => reject(new Error('the resume floor worker exited before it polled')));
    });
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}

/** Median spawn → polling ms of `reps` floor workers, one after the other. */
export async function resumeFloorMs(address: string, reps = 3): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < reps; i += 1) times.push(await once(address));
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(times.length / 2)]!);
}
