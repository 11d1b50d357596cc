/**
 * Synchronous lstat, readdir and small reads of git's own metadata: a worktree's `.git`
 * pointer, `commondir`, the hooks dir and the git-state guard's snapshot. The harness
 * looks at these before and after every agent command and step, many times per run.
 *
 * Why synchronous: through fs/promises each call cost ~20 µs of the worker's main-thread
 * CPU (a promise, a thread-pool hop, a FileHandle), ~3 µs done synchronously; they are
 * inode lookups and files of a few hundred bytes on the worker's own disk, so the event
 * loop waits microseconds. At 50 concurrent runs these calls were ~8 ms of worker CPU per
 * run (npm run bench -- --only concurrency --profile DIR).
 */
import { lstatSync, readdirSync, readFileSync, type BigIntStats, type Dirent } from 'node:fs';

/** lstat with nanosecond times; undefined when the path is missing or unreadable. */
export function lstatNow(file: string): BigIntStats | undefined {
  try {
    return lstatSync(file, { bigint: true, throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** The file's bytes; undefined when it is missing or unreadable. */
export function readNow(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** The directory's entries (throws as readdir does: the callers decide what a missing dir means). */
export function readdirNow(dir: string): Dirent[] {
  return readdirSync(dir, { withFileTypes: true });
}
