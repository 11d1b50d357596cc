/**
 * Surefire's XML reports after a Maven test run: `TEST-*.xml` in each module's
 * `target/surefire-reports` (and `target/failsafe-reports`, same format, when the
 * command runs `verify`). Unlike pytest's report, these cannot be sent elsewhere without
 * changing the user's command, so they are read where Maven writes them, in the worktree.
 *
 * Only reports written by this run count: a report older than the command's start is
 * left from an earlier run (a test class since deleted, or a module this run did not
 * reach) and would name failures that no longer exist. The command's own clean-up
 * (validator-outputs.ts) removes what it created afterwards; this only reads.
 *
 * Looked for only under a directory with a pom.xml, module directories at most a few
 * levels down, never inside sources, dependencies or hidden directories.
 */
import type { Dirent } from 'node:fs';
import { listDir as list, readRecentReports } from './recent-report-files.js';
import path from 'node:path';

const REPORT_DIRS = ['surefire-reports', 'failsafe-reports'];
const MAX_DEPTH = 5;
const MAX_DIRS = 2000;
const SKIP = new Set(['src', 'node_modules', 'target']);

/** The reports written since `sinceMs` under `dir`, or none when `dir` is not a Maven project. */
export async function surefireReports(dir: string, sinceMs: number): Promise<string[]> {
  const root = await list(dir);
  if (!root.some((e) => e.name === 'pom.xml' && e.isFile())) return [];
  const files: string[] = [];
  const queue: Array<{ dir: string; depth: number; entries?: Dirent[] }> = [{ dir, depth: 0, entries: root }];
  let visited = 0;
  while (queue.length > 0 && visited < MAX_DIRS) {
    const next = queue.shift();
    if (next === undefined) break;
    visited += 1;
    const entries = next.entries ?? (await list(next.dir));
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const child = path.join(next.dir, entry.name);
      if (entry.name === 'target') files.push(...(await reportFiles(child)));
      else if (!SKIP.has(entry.name) && next.depth < MAX_DEPTH) queue.push({ dir: child, depth: next.depth + 1 });
    }
  }
  return readRecentReports(files.sort(), sinceMs, dir);
}

async function reportFiles(target: string): Promise<string[]> {
  const out: string[] = [];
  for (const name of REPORT_DIRS) {
    const dir = path.join(target, name);
    for (const entry of await list(dir))
      if (entry.isFile() && /^TEST-.+\.xml$/.test(entry.name)) out.push(path.join(dir, entry.name));
  }
  return out;
}
