/**
 * What the report finders (surefire-report-files.ts, ctest-report-files.ts) share: listing
 * a directory without failing on one that is gone, and reading the report files written by
 * this command, not left over from an earlier run. A report older than the command's start
 * is skipped (with a little slack: file times and the clock may disagree on coarse
 * filesystems), and past a total size none is read: the console output is parsed instead.
 */
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { readReportFile } from './report-file.js';

/** All reports together; past it the caller falls back to the console output. */
const MAX_TOTAL_BYTES = 8 * 1024 * 1024;
const CLOCK_SLACK_MS = 2000;

/** A directory's entries; none when it cannot be read. */
export const listDir = (dir: string): Promise<Dirent[]> => readdir(dir, { withFileTypes: true }).catch(() => []);

/**
 * The texts of `files` written since `sinceMs` that `accept` takes; none when they are too
 * big together. Only files inside `root` (the command's directory) count: report-file.ts.
 */
export async function readRecentReports(
  files: readonly string[],
  sinceMs: number,
  root: string,
  accept: (text: string) => boolean = () => true,
): Promise<string[]> {
  const out: string[] = [];
  let total = 0;
  for (const file of files) {
    const report = await readReportFile(file, root, MAX_TOTAL_BYTES - total);
    if (report === undefined || report.mtimeMs < sinceMs - CLOCK_SLACK_MS) continue;
    total += report.size;
    if (report.text === undefined || total > MAX_TOTAL_BYTES) return [];
    if (accept(report.text)) out.push(report.text);
  }
  return out;
}
