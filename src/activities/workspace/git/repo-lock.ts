/**
 * Serialises writes to one repository's shared git state (the main checkout, refs,
 * .git/config, the worktree list). Several runs of a batch merge into the same main
 * checkout and add worktrees at once; git's own index.lock / config.lock make the
 * losers fail, and a loser's `merge --abort` could undo the winner's merge.
 *
 * Two layers: an in-process queue per repository (runs in one worker), and a lock
 * file in the repository's common git dir (workers in other processes on the host).
 * A lock file whose owner process is gone is stale and taken over.
 */
import { link, readFile, unlink, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { AgentError } from '../../../contracts/errors.js';
import { FailureType } from '../../../contracts/failures.js';
import { gitCommonPath } from './repo-queries.js';

const LOCK_FILE = 'issue-agent.lock';
const queues = new Map<string, Promise<unknown>>();

function ownerAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function ownerOf(path: string): Promise<number> {
  return Number((await readFile(path, 'utf8').catch(() => '')).trim());
}

/**
 * Removes a lock whose owner is gone, one process at a time. Two processes that both saw
 * the dead owner must not both unlink: the second would remove the lock the first has just
 * taken. So the removal happens under a second lock (`<lock>.takeover`, made the same way),
 * and only while the lock still names the dead owner. A takeover lock whose own owner is
 * gone is removed in turn (a crash in these few lines).
 */
async function takeOverStale(path: string, deadOwner: number): Promise<void> {
  const takeover = `${path}.takeover`;
  const mine = `${takeover}.${process.pid}`;
  await writeFile(mine, String(process.pid));
  try {
    await link(mine, takeover);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    if (!ownerAlive(await ownerOf(takeover))) await unlink(takeover).catch(() => undefined);
    else await sleep(10); // another process is removing it: a moment
    return;
  } finally {
    await unlink(mine).catch(() => undefined);
  }
  try {
    if ((await ownerOf(path)) === deadOwner) await unlink(path).catch(() => undefined);
  } finally {
    await unlink(takeover).catch(() => undefined);
  }
}

async function acquireFile(path: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 25; ; delay = Math.min(delay * 2, 250)) {
    // The lock file appears with its owner's pid already in it (write a private file,
    // then hard-link it into place, which fails if the lock exists): a lock file that
    // is still empty would read as "owner gone" and be taken over by another process.
    const mine = `${path}.${process.pid}`;
    await writeFile(mine, String(process.pid));
    try {
      await link(mine, path);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      await unlink(mine).catch(() => undefined);
    }
    const owner = await ownerOf(path);
    if (owner !== process.pid && !ownerAlive(owner)) {
      await takeOverStale(path, owner);
      continue;
    }
    if (Date.now() > deadline) {
      throw new AgentError(FailureType.WorktreeFailed, `the repository is busy: ${path} is held by process ${owner}`, {
        where: path,
        expected: 'the other run to finish its git operation (this is retried)',
        retryable: true,
      });
    }
    await sleep(delay);
  }
}

/** Runs `fn` while holding the repository's lock (in this process and across processes). */
export async function withRepoLock<T>(
  repoPath: string,
  fn: () => Promise<T>,
  options: { timeoutMs?: number } = {},
): Promise<T> {
  const lockPath = await gitCommonPath(repoPath, LOCK_FILE);
  const previous = queues.get(lockPath) ?? Promise.resolve();
  const run = previous
    .catch(() => undefined)
    .then(async () => {
      await acquireFile(lockPath, options.timeoutMs ?? 120_000);
      try {
        return await fn();
      } finally {
        await unlink(lockPath).catch(() => undefined);
      }
    });
  queues.set(lockPath, run);
  try {
    return await run;
  } finally {
    if (queues.get(lockPath) === run) queues.delete(lockPath);
  }
}
