/**
 * A worker as a separate process (`src/worker.ts`), so tests can SIGKILL it like a
 * crashed machine; and a small poll-until helper.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { PROJECT_ROOT } from '../../src/host/project-root.js';

/** Starts `npm run worker`'s entry point with the given environment (no real model key, no rate caps). */
export function startWorkerProcess(env: Record<string, string>): ChildProcess {
  const { ANTHROPIC_API_KEY: _k, MODEL_RPM: _r, MODEL_TPM: _t, ...base } = process.env;
  return spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
    cwd: PROJECT_ROOT,
    env: { ...base, ...env, NODE_TEST_CONTEXT: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

export async function waitFor(predicate: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}
