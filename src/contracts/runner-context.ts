/**
 * `${context.<key>}` in a runner step's args (upstream subprocess-runner): the keys it
 * names, and the substitution. The context is the run's agent parameters plus `issue`
 * (the issue number). Pure: used by the rules at load and by the workflow at run time.
 * Also the runStepRunner activity's input and output.
 */

import type { JsonObject } from './json.js';
import type { WorktreeCheckpointRequest } from './worktree-checkpoint.js';

/** A closure step's subprocess `runner` (args already substituted by the workflow). */
export interface RunStepRunnerInput {
  readonly stepId: string;
  readonly worktreePath: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly timeoutMs: number;
  /** Worktree checkpoint of this step; absent in activities scheduled before checkpoints existed. */
  readonly checkpoint?: WorktreeCheckpointRequest;
}

export interface RunStepRunnerOutput {
  /** Exit code when the process exited by itself; absent when killed (timeout) or not started. */
  readonly exitCode?: number;
  readonly timedOut: boolean;
  /** stdout parsed as a JSON object, else `{ raw, parsed? }` as upstream. */
  readonly output: JsonObject;
  /** One line: how it ended, with the tail of stderr when it failed. */
  readonly summary: string;
  /** The step's worktree checkpoint (a commit on `checkpoint.ref`); absent when none was recorded. */
  readonly worktreeCheckpoint?: string;
}

const CONTEXT_PLACEHOLDER = /\$\{context\.([A-Za-z0-9_-]+)\}/g;

/** Context keys every run has, whatever the agent's parameters. */
export const RUNNER_CONTEXT_BUILTINS: readonly string[] = ['issue'];

export function contextKeys(arg: string): string[] {
  return [...arg.matchAll(CONTEXT_PLACEHOLDER)].map((m) => m[1] ?? '');
}

export type SubstitutedArgs =
  { readonly ok: true; readonly args: string[] } | { readonly ok: false; readonly missing: string[] };

/** Replaces every placeholder; a key without a value (or null) fails, as upstream. */
export function substituteContext(
  args: readonly string[],
  context: Readonly<Record<string, string | number | boolean | undefined>>,
): SubstitutedArgs {
  const missing: string[] = [];
  const out = args.map((arg) =>
    arg.replace(CONTEXT_PLACEHOLDER, (whole, key: string) => {
      const value = Object.hasOwn(context, key) ? context[key] : undefined;
      if (value === undefined) {
        if (!missing.includes(key)) missing.push(key);
        return whole;
      }
      return String(value);
    }),
  );
  return missing.length > 0 ? { ok: false, missing } : { ok: true, args: out };
}
