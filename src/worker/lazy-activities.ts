/**
 * Activities registered by name before their implementations are loaded: each one awaits
 * the loaded set, then calls its implementation (in the same activity context: Context.current()
 * and cancellation work as usual). A failed load fails every call with its error.
 */
import { WORKER_ACTIVITY_NAMES, type WorkerActivities } from '../contracts/worker-activities.js';

type AnyActivity = (...args: unknown[]) => Promise<unknown>;

export function lazyActivities(loaded: Promise<WorkerActivities>): WorkerActivities {
  const entries = WORKER_ACTIVITY_NAMES.map((name) => {
    const call: AnyActivity = async (...args) => {
      const impl = (await loaded)[name] as AnyActivity;
      return impl(...args);
    };
    return [name, call] as const;
  });
  return Object.fromEntries(entries) as unknown as WorkerActivities;
}
