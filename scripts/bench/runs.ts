/**
 * Small pieces every phase's runs share: unique workflow ids and task queues, the run
 * input for the intents fixture agent, a warm-up run, and the check that fails a phase.
 */
import { WorkflowFailedError } from '@temporalio/client';
import type { RunInput } from '../../src/contracts/run.js';
import type { BenchContext } from './context.js';
import { durableRun } from './durable.js';
import { INTENTS_AGENT } from './sessions.js';

let seq = 0;
/** A name no other run or task queue of this bench (or another bench process) has. */
export const uniq = (prefix: string): string => `${prefix}-${process.pid}-${Date.now().toString(36)}-${++seq}`;

/** A run of the intents fixture agent, with room for `steps` steps. */
export function intentsInput(repoPath: string, issue: number, artifactsDir: string, steps: number): RunInput {
  return { issue, agentDir: INTENTS_AGENT, repoPath, issueSource: 'local', artifactsDir, maxIterations: steps + 2 };
}

/** A warm-up run (module loading, the bundle in the worker's isolate, JIT); its outcome does not matter. */
export async function warmUp(ctx: BenchContext, taskQueue: string, input: RunInput): Promise<void> {
  await durableRun(ctx.client, taskQueue, uniq('warm'), input, 60_000).catch((err: unknown) => {
    if (!(err instanceof WorkflowFailedError)) throw err;
  });
}

/** Fails the phase with `what: detail` unless `ok`. */
export function check(what: string, ok: boolean, detail: string): void {
  if (!ok) throw new Error(`${what}: ${detail}`);
}
