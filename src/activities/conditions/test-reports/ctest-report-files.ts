/**
 * CTest's JUnit reports after a test run. CTest writes one only when asked
 * (`--output-junit <file>`, the detected command asks for `ctest-junit.xml`), to a path
 * relative to the build directory, and no variable can ask for it without changing the
 * user's command (pytest's PYTEST_ADDOPTS has no CTest twin). So, like Surefire's
 * reports (surefire-report-files.ts), they are read where they were written: XML files
 * directly in a CMake build directory (one holding `CMakeCache.txt`: `build/`,
 * `out/build/<preset>/`, `cmake-build-debug/`) that this run wrote and that are CTest's
 * (ctest-junit.ts's signature). An older file is from an earlier run and would name
 * failures that no longer exist; the command's own clean-up (validator-outputs.ts)
 * removes what it created afterwards, this only reads.
 *
 * Looked for only when the worktree has a CMakeLists.txt, a few levels down, never in
 * hidden directories, dependencies or a build directory's own subdirectories.
 */
import type { Dirent } from 'node:fs';
import { listDir as list, readRecentReports } from './recent-report-files.js';
import path from 'node:path';
import { isCTestJUnit } from '../../../definition/ecosystems/test-runners/ctest-junit.js';

const MAX_DEPTH = 3;
const MAX_DIRS = 500;
const SKIP = new Set(['node_modules', 'CMakeFiles', 'Testing', 'third_party', 'vendor']);

/** The CTest JUnit reports written since `sinceMs` under `dir`, or none when `dir` is not a CMake project. */
export async function ctestReports(dir: string, sinceMs: number): Promise<string[]> {
  const root = await list(dir);
  if (!root.some((e) => e.name === 'CMakeLists.txt' && e.isFile())) return [];
  const candidates: string[] = [];
  const queue: Array<{ dir: string; depth: number; entries: Dirent[] }> = [{ dir, depth: 0, entries: root }];
  let visited = 0;
  while (queue.length > 0 && visited < MAX_DIRS) {
    const next = queue.shift();
    if (next === undefined) break;
    visited += 1;
    if (next.entries.some((e) => e.name === 'CMakeCache.txt' && e.isFile())) {
      // A build directory: its reports are at its top; what is below is CMake's own.
      for (const e of next.entries)
        if (e.isFile() && e.name.endsWith('.xml')) candidates.push(path.join(next.dir, e.name));
      continue;
    }
    if (next.depth >= MAX_DEPTH) continue;
    for (const entry of next.entries) {
      if (!entry.isDirectory() || entry.name.startsWith('.') || SKIP.has(entry.name)) continue;
      const child = path.join(next.dir, entry.name);
      queue.push({ dir: child, depth: next.depth + 1, entries: await list(child) });
    }
  }
  return readRecentReports(candidates.sort(), sinceMs, dir, isCTestJUnit);
}
