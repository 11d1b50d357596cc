/**
 * The dependencies setup installed inside the worktree (`node_modules`, at the root and in
 * workspace packages), shown read-only to agent commands and to the validators that run
 * the tests after them. They are git-ignored, so nothing the agent writes there shows in
 * the diff the checks read: an agent that replaced `node_modules/.bin/jest` with a script
 * printing `PASS` had its fake run by the closing's `yarn test`, and the run closed the
 * issue with the bug still there. The agent has no network, so it could not install
 * anything there anyway; an agent-written setup (with the network) still may.
 *
 * What test tools write into node_modules as they run (babel's and others' `.cache`,
 * Vite's and Vitest's `.vite`, `.vite-temp`, `.vitest`) stays writable: those dirs are
 * made here, as mount points.
 */
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';

/** Subdirectories of a node_modules that test runs write (left writable). */
export const NODE_MODULES_CACHES = ['.cache', '.vite', '.vite-temp', '.vitest'] as const;

/** How deep workspace packages are looked for (`packages/*`, `apps/web/*`). */
const MAX_DEPTH = 3;

export interface InstalledDependencies {
  /** Read-only to agent commands. */
  readonly readOnly: readonly string[];
  /** Writable inside them (caches test tools write). */
  readonly writable: readonly string[];
}

export async function installedDependencies(worktree: string): Promise<InstalledDependencies> {
  const found: string[] = [];
  await walk(worktree, 0, found);
  const writable = found.flatMap((dir) => NODE_MODULES_CACHES.map((name) => path.join(dir, name)));
  for (const dir of writable) await mkdir(dir, { recursive: true });
  return { readOnly: found, writable };
}

async function walk(dir: string, depth: number, found: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    if (entry.name === 'node_modules') found.push(path.join(dir, entry.name));
    else if (!entry.name.startsWith('.') && depth < MAX_DEPTH) await walk(path.join(dir, entry.name), depth + 1, found);
  }
}
