/**
 * Phase `floor`: the Temporal-only floor, a workflow awaiting one no-op activity per step
 * (floor.ts measures it). The overhead phase is read against it, so `--only overhead`
 * runs it too.
 */
import type { BenchPhase } from '../phase.js';
import { floorPhase } from '../floor.js';
import { perStep } from '../figures.js';
import { note } from '../log.js';
import { track } from '../workers.js';
import { uniq } from '../runs.js';

export const floor: BenchPhase = {
  name: 'floor',
  neededBy: ['overhead'],
  // Its figures are read in the overhead's rows (floorMsPerStep next to overheadVsFloor).
  rows: [],
  title: (cfg) => `floor (one no-op activity per step, ${cfg.overheadSteps} steps, ${cfg.floorReps} rep)`,
  async run({ client, server, dir, cfg }) {
    const result = await floorPhase({
      client,
      address: server.address,
      dir,
      steps: cfg.overheadSteps,
      reps: cfg.floorReps,
      uniq,
      track,
    });
    const b = result.breakdown;
    const per = (v: number): number => perStep(v, cfg.overheadSteps);
    note(
      `  floor ${result.figures.floorMsPerStep} ms/step (host queue ${result.figures.floorHostQueueMsPerStep}, local activity ${result.figures.floorLocalMsPerStep}); ` +
        `per step: activity queue ${per(b.activityQueueMs)} ms / exec ${per(b.activityExecMs)} ms, workflow task queue ${per(b.workflowTaskQueueMs)} ms / exec ${per(b.workflowTaskExecMs)} ms, ${per(b.events)} events`,
    );
    return result.figures;
  },
};
