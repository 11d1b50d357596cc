/**
 * Reading one report file the tested code wrote. The code under test ran in the sandbox,
 * but the report is read here, on the host, as the worker: a symlink (the file, or a
 * directory on its way: `target/surefire-reports` → elsewhere) would be followed to
 * whatever the worker can read and the sandbox hides (its home, another repository's
 * reports, its own `/proc/self/*`), and what parses as a failure reaches the retry prompt.
 * So a file counts only where it resolves inside the directory the command could write
 * (the worktree, or the private HOME for pytest's report), is opened without following a
 * last link, and is a regular file: a FIFO is opened non-blocking and refused, not waited on.
 */
import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { isStrictlyInside } from '../../../definition/load/path-inside.js';

export interface ReportFile {
  /** Undefined when the file is larger than asked for. */
  readonly text?: string;
  readonly size: number;
  readonly mtimeMs: number;
}

/** The report's text, size and time, or undefined when it is missing, elsewhere or not a regular file. */
export async function readReportFile(file: string, root: string, maxBytes: number): Promise<ReportFile | undefined> {
  try {
    const [real, top] = await Promise.all([realpath(file), realpath(root)]);
    if (!isStrictlyInside(top, real)) return undefined;
    const handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      const info = await handle.stat();
      if (!info.isFile()) return undefined;
      const text = info.size > maxBytes ? undefined : await handle.readFile('utf8');
      return { ...(text === undefined ? {} : { text }), size: info.size, mtimeMs: info.mtimeMs };
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}
