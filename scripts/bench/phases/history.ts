/**
 * Phase `history`: history bytes per step while every step's bash prints 1 MB (the
 * output goes to artifacts on disk, not into the history). Two run lengths, so the
 * per-step figure is the slope, free of the run's fixed events.
 */
import { mkdtemp, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createModelServer } from '../../../src/dev/model-server/model-server.js';
import type { BenchContext } from '../context.js';
import { durableRun, historyFacts } from '../durable.js';
import { roundTo, type Figures } from '../figures.js';
import { note } from '../log.js';
import type { BenchPhase } from '../phase.js';
import { newRepo } from '../repos.js';
import { check, intentsInput, uniq } from '../runs.js';
import { stepsSession } from '../sessions.js';
import { withWorker } from '../workers.js';

const BYTES_OUT = 1024 * 1024;

async function countBigArtifacts(dir: string, minBytes: number): Promise<number> {
  let count = 0;
  const walk = async (d: string): Promise<void> => {
    for (const entry of await readdir(d, { withFileTypes: true }).catch(() => [])) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) await walk(p);
      else if ((await stat(p)).size >= minBytes) count += 1;
    }
  };
  await walk(dir);
  return count;
}

interface HistorySize {
  readonly steps: number;
  readonly bytes: number;
  readonly events: number;
  readonly bigArtifacts: number;
}

/** One run of `steps` steps, each printing 1 MB: its history's size. */
async function historySize(ctx: BenchContext, steps: number): Promise<HistorySize> {
  const model = await createModelServer({
    session: stepsSession({ steps, latencyMs: 0, toolOutputBytes: BYTES_OUT }),
  });
  const artifactsDir = await mkdtemp(join(ctx.dir, 'artifacts-history-'));
  try {
    return await withWorker(ctx, model, async (taskQueue) => {
      const repo = await newRepo();
      const run = await durableRun(
        ctx.client,
        taskQueue,
        uniq('history'),
        intentsInput(repo.repoPath, repo.issue, artifactsDir, steps),
        180_000,
      );
      check(
        'history run',
        run.result.outcome === 'success' && run.result.steps.length === steps,
        `${run.result.outcome}: ${run.result.reason}`,
      );
      const facts = await historyFacts(run.handle);
      const bigArtifacts = await countBigArtifacts(artifactsDir, BYTES_OUT);
      check(
        '1 MB tool outputs',
        bigArtifacts >= steps,
        `expected >= ${steps} artifacts of 1 MB, found ${bigArtifacts}`,
      );
      note(
        `  ${steps} steps × 1 MB tool output: history ${facts.bytes} B, ${facts.events} events, ${bigArtifacts} 1 MB artifacts on disk`,
      );
      return { steps, bytes: facts.bytes, events: facts.events, bigArtifacts };
    });
  } finally {
    await model.close();
  }
}

export const history: BenchPhase = {
  name: 'history',
  rows: [
    { key: 'historyBytesPerStep', unit: 'B', max: 8192 },
    { key: 'historyBytesPerStepAvg', unit: 'B' },
  ],
  title: (cfg) => `history (${cfg.historySteps.join(' and ')} steps, 1 MB tool output each)`,
  async run(ctx): Promise<Figures> {
    const [fewer, more] = ctx.cfg.historySteps;
    const a = await historySize(ctx, fewer);
    const b = await historySize(ctx, more);
    return {
      historyBytesPerStep: Math.round((b.bytes - a.bytes) / (b.steps - a.steps)),
      historyBytesPerStepAvg: Math.round(b.bytes / b.steps),
      historyBytesTotal: b.bytes,
      historyEventsTotal: b.events,
      historyEventsPerStep: roundTo((b.events - a.events) / (b.steps - a.steps), 1),
      historySteps: b.steps,
    };
  },
};
