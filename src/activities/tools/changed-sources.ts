/**
 * Build tools decide what to rebuild by modification times: cargo's fingerprint of a
 * workspace crate, Maven's stale-source check, the header of Python's bytecode. The
 * agent sets mtimes at will, so a source it changed back to an older text, with an older
 * mtime, would pass for unchanged since a validator compiled another version of it into
 * the validators' own build outputs (validator-view.ts): a test made to pass trivially,
 * run by one step's validators, then restored with its old mtime, would still be the
 * compiled one at the closing. The ctime it cannot set: every change of a file, `touch -d`
 * included, moves it to now. So before each configured command, every file whose ctime is
 * later than the previous check gets its mtime set to now, and the tools rebuild it.
 */
import type { Dirent } from 'node:fs';
import { readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Never sources: git's own, installed dependencies (read-only to the agent). */
const NOT_SOURCES = new Set(['.git', 'node_modules']);

/**
 * Sets to now the mtime of every file under `worktree` changed since the time in
 * `stampFile` (none on the first call: the validators' outputs are empty then, nothing is
 * stale), then writes the new time there. `skip`: absolute directories not walked (the
 * validators' own outputs shown in the worktree). Returns the files freshened.
 */
export async function freshenChangedSources(
  worktree: string,
  stampFile: string,
  skip: ReadonlySet<string>,
): Promise<string[]> {
  const since = Number((await readFile(stampFile, 'utf8').catch(() => '')).trim());
  const freshened: string[] = [];
  if (Number.isFinite(since) && since > 0) {
    const now = new Date();
    const visit = async (dir: string): Promise<void> => {
      const entries: Dirent[] = await readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        const at = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (!NOT_SOURCES.has(entry.name) && !skip.has(at)) await visit(at);
        } else if (entry.isFile()) {
          const info = await stat(at).catch(() => undefined);
          if (info === undefined || info.ctimeMs <= since) continue;
          await utimes(at, info.atime, now).catch(() => undefined);
          freshened.push(at);
        }
      }
    };
    await visit(worktree);
  }
  // After the walk: the ctimes our own utimes set are older than the next check's `since`.
  await writeFile(stampFile, `${Date.now() + 1}\n`);
  return freshened;
}
