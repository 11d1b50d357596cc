/**
 * Copies a worktree's git index to seed a checkpoint's index, keeping the source's
 * modification time. Git trusts an entry's stat data (its times compared to the second
 * here) only for entries older than the index file itself; an entry written in the same
 * second as the index is "racily clean" and git checks its content. A plain copy would
 * date the index now, so a same-size edit made in the second of the last index write
 * would pass for unchanged and the checkpoint would keep the old content. Keeping the
 * time keeps git's own doubt.
 */
import { copyFile, lstat, utimes } from 'node:fs/promises';

/** True when copied; false when there is no regular file to copy (none, or a symlink the agent planted). */
export async function copyIndexKeepingItsTime(from: string, to: string): Promise<boolean> {
  // Only a regular file: the agent may have made its index a symlink to a worker secret.
  const info = await lstat(from).catch(() => undefined);
  if (info === undefined || !info.isFile()) return false;
  try {
    await copyFile(from, to);
    // Milliseconds only: a time cut short can only make more entries doubtful, never fewer.
    await utimes(to, info.atime, info.mtime);
    return true;
  } catch {
    return false;
  }
}
