/**
 * The compiled worker, as an installed user runs it (`issue-agent worker`: node
 * dist/worker.js with the prebuilt workflow bundle). `ensureCompiled` rebuilds dist/ with
 * `npm run build` when it is missing or older than a file under src/.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/host/project-root.js';

export const COMPILED_WORKER = join(PROJECT_ROOT, 'dist', 'worker.js');
/** Written last by `npm run build` (scripts/bundle-workflows.mjs runs after tsc). */
const BUILD_STAMP = join(PROJECT_ROOT, 'dist', 'workflow-bundle.js');

function newestMtimeMs(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtimeMs(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function mtimeMs(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** Builds dist/ unless it is newer than every source file; returns what it did. */
export function ensureCompiled(): 'fresh' | 'built' {
  const built = Math.min(mtimeMs(COMPILED_WORKER), mtimeMs(BUILD_STAMP));
  if (built > newestMtimeMs(join(PROJECT_ROOT, 'src'))) return 'fresh';
  const result = spawnSync('npm', ['run', '--silent', 'build'], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (result.status !== 0) {
    throw new Error(`npm run build failed (exit ${result.status}): ${String(result.stderr).slice(-2000)}`);
  }
  return 'built';
}
