/**
 * Polls `probe` until it returns something other than undefined, or fails naming `what`
 * after `ms`. The one copy for tests that wait on a live system (a run, a watcher, a fake
 * server); a fixed sleep before asserting that something happened is never right. `what`
 * may be a function, read at the timeout, to add what the test saw meanwhile (a child's
 * stderr, the model server's counts). A probe that throws ends the wait with its error.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export async function until<T>(
  what: string | (() => string),
  probe: () => Promise<T | undefined> | T | undefined,
  ms = 180_000,
  everyMs = 250,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end)
      throw new Error(`timed out after ${ms} ms waiting for ${typeof what === 'string' ? what : what()}`);
    await sleep(everyMs);
  }
}
