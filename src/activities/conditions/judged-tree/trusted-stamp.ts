/**
 * When the harness last ran the configured commands of a worktree (the preflight, a
 * closure's validators). Everything git ignores that is newer than that in the worktree
 * was written by the agent's own commands since (set-aside-ignored.ts). The stamp is a
 * file in the validators' state, which the agent's commands never see; its change time
 * is set by the kernel, on the same clock as the files it is compared with.
 */
import { lstatSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { environmentReportPath, validatorStateDir } from '../../workspace/sandbox-state.js';

const STAMP = 'trusted-until';
/** Longer than the kernel's coarse clock tick (1–10 ms) that change times are taken from. */
const CLOCK_TICK_MS = 20;

function stampPath(worktreePath: string): string {
  return path.join(validatorStateDir(worktreePath), STAMP);
}

/** Records that everything in the worktree now was written by the harness or before it. */
export async function markTrusted(worktreePath: string): Promise<void> {
  const file = stampPath(worktreePath);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${new Date().toISOString()}\n`);
  // Change times tick coarsely (a few ms): whatever is written from now on is strictly newer.
  await delay(CLOCK_TICK_MS);
}

/**
 * The stamp's change time in nanoseconds. Before any configured command ran (a revived
 * run skips the preflight), the environment report's: setup wrote it last. Undefined when
 * neither exists (a worktree the harness never prepared).
 */
export function trustedUntil(worktreePath: string): bigint | undefined {
  return changeTime(stampPath(worktreePath)) ?? changeTime(environmentReportPath(worktreePath));
}

function changeTime(file: string): bigint | undefined {
  try {
    return lstatSync(file, { bigint: true }).ctimeNs;
  } catch {
    return undefined;
  }
}
