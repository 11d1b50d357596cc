/**
 * Durable vs in-process, interleaved: for each repetition one run on the worker and one
 * plain in-process loop of the same agent and session. The overhead and ratio phases
 * differ only in the model's latency and the number of steps.
 */
import { join } from 'node:path';
import { createModelServer } from '../../src/dev/model-server/model-server.js';
import type { BenchContext } from './context.js';
import {
  durableRun,
  historyFacts,
  intervals,
  median,
  timeBreakdown,
  withTimeout,
  type TimeBreakdown,
} from './durable.js';
import { runInProcess } from './in-process.js';
import { note } from './log.js';
import { newRepo } from './repos.js';
import { countRoundTrips, type RoundTrips } from './round-trips.js';
import { check, intentsInput, uniq, warmUp } from './runs.js';
import { stepsSession } from './sessions.js';
import { withWorker } from './workers.js';

export interface PairResult {
  readonly durableMs: number[];
  readonly inProcessMs: number[];
  readonly durableStepMs: number[];
  readonly inProcessStepMs: number[];
  /**
   * Durable minus in-process, per repetition: up to the end of the first step (start, load,
   * workspace, environment, the first step) and after the end of the last (validators,
   * boundary, close): the run's fixed part, apart from its per-step interval.
   */
  readonly headMs: number[];
  readonly tailMs: number[];
  readonly breakdowns: TimeBreakdown[];
  readonly roundTrips: RoundTrips[];
}

export async function pairs(ctx: BenchContext, steps: number, latencyMs: number, reps: number): Promise<PairResult> {
  const model = await createModelServer({ session: stepsSession({ steps, latencyMs }) });
  const artifactsDir = join(ctx.dir, 'artifacts');
  const out: PairResult = {
    durableMs: [],
    inProcessMs: [],
    durableStepMs: [],
    inProcessStepMs: [],
    headMs: [],
    tailMs: [],
    breakdowns: [],
    roundTrips: [],
  };
  try {
    await withWorker(ctx, model, async (taskQueue) => {
      // One warm-up run each (module loading, bundle in the worker's isolate, JIT).
      // The session scripts `steps` steps, so a 3-iteration run ends failed: only its warmth counts.
      const warm = await newRepo();
      await warmUp(ctx, taskQueue, intentsInput(warm.repoPath, warm.issue, artifactsDir, 3));
      const warm2 = await newRepo();
      await runInProcess(intentsInput(warm2.repoPath, warm2.issue, artifactsDir, 3), model.url);
      for (let rep = 0; rep < reps; rep += 1) {
        const a = await newRepo();
        const d = await durableRun(
          ctx.client,
          taskQueue,
          uniq('overhead'),
          intentsInput(a.repoPath, a.issue, artifactsDir, steps),
          30_000 + steps * (latencyMs + 2000),
        );
        check(
          'durable run',
          d.result.outcome === 'success' && d.result.steps.length === steps,
          `${d.result.outcome} after ${d.result.steps.length} steps: ${d.result.reason}`,
        );
        const facts = await historyFacts(d.handle);
        out.durableMs.push(d.wallMs);
        out.durableStepMs.push(median(intervals(facts.stepEnds)));
        out.breakdowns.push(await timeBreakdown(d.handle));
        out.roundTrips.push(countRoundTrips((await d.handle.fetchHistory()).events ?? [], steps));
        const b = await newRepo();
        const p = await withTimeout(
          runInProcess(intentsInput(b.repoPath, b.issue, artifactsDir, steps), model.url),
          30_000 + steps * (latencyMs + 2000),
          'in-process run',
        );
        check(
          'in-process run',
          p.outcome === 'success' && p.steps === steps,
          `${p.outcome} after ${p.steps} steps: ${p.reason}`,
        );
        out.inProcessMs.push(p.wallMs);
        out.inProcessStepMs.push(median(intervals(p.stepEnds)));
        // Server times for the durable run, this process's clock for the in-process one.
        out.headMs.push(facts.stepEnds[0]! - facts.startedAt - (p.stepEnds[0]! - p.startedAt));
        out.tailMs.push(facts.closedAt - facts.stepEnds.at(-1)! - (p.startedAt + p.wallMs - p.stepEnds.at(-1)!));
        note(
          `  rep ${rep + 1}/${reps}: durable ${Math.round(d.wallMs)} ms, in-process ${Math.round(p.wallMs)} ms (${steps} steps at ${latencyMs} ms)`,
        );
      }
    });
  } finally {
    await model.close();
  }
  return out;
}
