/**
 * Phase `overhead`: N-step runs of the intents fixture agent, durable vs in-process,
 * interleaved; the orchestration overhead per step, against the floor phase's figures
 * (the host-queue floor is the target's, the workflow-queue floor a regression guard),
 * and where a durable step's time goes (task queues and execution, activities by type,
 * history events by type).
 */
import { median } from '../durable.js';
import { perStep, roundTo, type Figures } from '../figures.js';
import { note } from '../log.js';
import { pairs } from '../pairs.js';
import type { BenchPhase } from '../phase.js';

export const overhead: BenchPhase = {
  name: 'overhead',
  rows: [
    { key: 'overheadMsPerStep', unit: 'ms' },
    { key: 'overheadMsPerStepInterval', unit: 'ms' },
    { key: 'floorMsPerStep', unit: 'ms' },
    // Issue 38 (settling issue 29): steps run on their worktree host's queue (fleet failover),
    // so the overhead is held against that floor, measured in the same run.
    { key: 'overheadVsHostQueueFloor', unit: '×', max: 1.5 },
    { key: 'floorHostQueueMsPerStep', unit: 'ms' },
    // A regression guard against the workflow-queue floor: the best measured was 2.55 (issue 29).
    { key: 'overheadVsFloor', unit: '×', max: 3 },
    { key: 'perStepHistoryEvents', unit: '' },
    // Counted, not timed (round-trips.ts): workflow and activity tasks, steady state per step and the rest.
    { key: 'roundTripsPerStep', unit: '' },
    { key: 'fixedRoundTrips', unit: '' },
  ],
  title: (cfg) => `overhead (${cfg.overheadSteps} steps at ${cfg.overheadLatencyMs} ms, ${cfg.overheadReps} rep)`,
  async run(ctx) {
    const { cfg, results } = ctx;
    const steps = cfg.overheadSteps;
    const r = await pairs(ctx, steps, cfg.overheadLatencyMs, cfg.overheadReps);
    const perRep = r.durableMs.map((d, i) => (d - r.inProcessMs[i]!) / steps);
    const figures: Figures = {};
    figures.overheadMsPerStep = roundTo(median(perRep), 1);
    figures.overheadMsPerStepInterval = roundTo(median(r.durableStepMs) - median(r.inProcessStepMs), 1);
    // The fixed part, told apart: before the first step's end and after the last's.
    figures.overheadHeadMs = Math.round(median(r.headMs));
    figures.overheadTailMs = Math.round(median(r.tailMs));
    figures.overheadSteps = steps;
    figures.overheadLatencyMs = cfg.overheadLatencyMs;
    figures.overheadDurableMs = Math.round(median(r.durableMs));
    figures.overheadInProcessMs = Math.round(median(r.inProcessMs));
    const b = r.breakdowns[Math.floor(r.breakdowns.length / 2)]!;
    const per = (v: number): number => perStep(v, steps);
    figures.perStepActivityQueueMs = per(b.activityQueueMs);
    figures.perStepActivityExecMs = per(b.activityExecMs);
    figures.perStepWorkflowTaskQueueMs = per(b.workflowTaskQueueMs);
    figures.perStepWorkflowTaskExecMs = per(b.workflowTaskExecMs);
    figures.perStepActivities = per(b.activities);
    figures.perStepWorkflowTasks = per(b.workflowTasks);
    figures.perStepHistoryEvents = per(b.events);
    figures.perStepEventsByType = Object.fromEntries(Object.entries(b.byEventType).map(([k, v]) => [k, per(v)]));
    for (const [type, v] of Object.entries(b.byActivity)) {
      figures[`perStepActivity_${type}`] = { count: per(v.count), queueMs: per(v.queueMs), execMs: per(v.execMs) };
    }
    // The same in every repetition (the run issues the same commands): the first one's.
    const trips = r.roundTrips[0]!;
    figures.roundTripsPerStep = trips.perStep;
    figures.fixedRoundTrips = trips.fixed;
    figures.roundTripsPerRun = trips.perRun;
    figures.workflowTasksPerRun = trips.workflowTasks;
    figures.activityTasksPerRun = trips.activityTasks;
    figures.localActivitiesPerRun = trips.localActivities;
    figures.activityTasksByType = trips.activitiesByType;
    if (typeof results.floorMsPerStep === 'number' && results.floorMsPerStep > 0)
      figures.overheadVsFloor = roundTo(Number(figures.overheadMsPerStep) / results.floorMsPerStep, 2);
    if (typeof results.floorHostQueueMsPerStep === 'number' && results.floorHostQueueMsPerStep > 0)
      figures.overheadVsHostQueueFloor = roundTo(
        Number(figures.overheadMsPerStep) / results.floorHostQueueMsPerStep,
        2,
      );
    note(
      `  durable minus in-process: ${figures.overheadMsPerStepInterval} ms per step interval; fixed ${figures.overheadHeadMs} ms up to the first step's end, ${figures.overheadTailMs} ms after the last's`,
    );
    note(
      `  round trips: ${trips.perStep} per step, ${trips.fixed} fixed (${trips.workflowTasks} workflow tasks, ${trips.activityTasks} activity tasks, ${trips.localActivities} local activities per run: ` +
        Object.entries(trips.activitiesByType)
          .map(([k, v]) => `${k} ×${v}`)
          .join(', ') +
        ')',
    );
    note(
      `  durable run, per step: ${figures.perStepActivities} activities (queue ${figures.perStepActivityQueueMs} ms, exec ${figures.perStepActivityExecMs} ms), ` +
        `${figures.perStepWorkflowTasks} workflow tasks (queue ${figures.perStepWorkflowTaskQueueMs} ms, exec ${figures.perStepWorkflowTaskExecMs} ms); ` +
        Object.entries(b.byActivity)
          .map(([k, v]) => `${k} ×${v.count} q${Math.round(v.queueMs / v.count)}/x${Math.round(v.execMs / v.count)} ms`)
          .join(', '),
    );
    return figures;
  },
};
