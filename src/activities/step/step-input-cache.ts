/**
 * Resolved step inputs (system prompt, step schema) kept in the worker process, keyed by
 * run and by the resolution input itself: a run resolves each once and every later step
 * of it reuses the result, while another run (or an edited definition, which a new run
 * loads) resolves afresh. Bounded: the oldest entries go first.
 */
import { createHash } from 'node:crypto';

export interface StepInputCache {
  /** The cached value for (scope, input), else `resolve(input)` (a failure is not cached). */
  get<I, O>(scope: string, input: I, resolve: (input: I) => Promise<O>): Promise<O>;
  readonly size: number;
}

export function createStepInputCache(maxEntries = 512): StepInputCache {
  const entries = new Map<string, Promise<unknown>>();
  return {
    get<I, O>(scope: string, input: I, resolve: (input: I) => Promise<O>): Promise<O> {
      const key = createHash('sha256').update(scope).update('\0').update(JSON.stringify(input)).digest('hex');
      const hit = entries.get(key);
      if (hit !== undefined) {
        entries.delete(key);
        entries.set(key, hit);
        return hit as Promise<O>;
      }
      const value = resolve(input);
      entries.set(key, value);
      value.catch(() => entries.delete(key));
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
      return value;
    },
    get size() {
      return entries.size;
    },
  };
}
