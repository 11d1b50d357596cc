/**
 * Phase `ratio`: the overhead's comparison at 500 ms model latency, as a ratio of wall
 * times, with the bound the floor phase's host-queue figure alone sets on it.
 */
import { median } from '../durable.js';
import { roundTo, type Figures } from '../figures.js';
import { pairs } from '../pairs.js';
import type { BenchPhase } from '../phase.js';
import { figure, plus } from '../report.js';

const LATENCY_MS = 500;

export const ratio: BenchPhase = {
  name: 'ratio',
  rows: [
    // Issue 29: at most 0.02 above what the floor's host-queue activity alone allows.
    { key: 'ratioVsInProcess', unit: '×', maxFrom: (r) => plus(figure(r, 'ratioFloorBound'), 0.02) },
    { key: 'ratioFloorBound', unit: '×' },
  ],
  title: (cfg) => `ratio (${cfg.ratioSteps} steps at ${LATENCY_MS} ms, ${cfg.ratioReps} rep)`,
  async run(ctx) {
    const { cfg, results } = ctx;
    const r = await pairs(ctx, cfg.ratioSteps, LATENCY_MS, cfg.ratioReps);
    const figures: Figures = {
      ratioVsInProcess: roundTo(median(r.durableMs.map((d, i) => d / r.inProcessMs[i]!)), 3),
      ratioDurableMs: Math.round(median(r.durableMs)),
      ratioInProcessMs: Math.round(median(r.inProcessMs)),
    };
    // What one host-queue activity per step (the floor phase) alone adds to the in-process run.
    const floor = Number(results.floorHostQueueMsPerStep);
    const inProcessMs = median(r.inProcessMs);
    if (Number.isFinite(floor))
      figures.ratioFloorBound = roundTo((inProcessMs + floor * cfg.ratioSteps) / inProcessMs, 3);
    return figures;
  },
};
