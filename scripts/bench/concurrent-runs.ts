/**
 * R runs at once on one worker, after one run alone: the wall time against that run's,
 * steps per second, the worker's peak RSS, and the CPU each process spent (the dev
 * server's share bounds the wall ratio on this machine). The concurrency phases run it.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { localIssuePath } from '../../src/activities/issues/local-issue-store.js';
import { createModelServer } from '../../src/dev/model-server/model-server.js';
import type { BenchContext } from './context.js';
import { durableRun, startRun, timeBreakdown, withTimeout, type TimeBreakdown } from './durable.js';
import { roundTo } from './figures.js';
import { note } from './log.js';
import { newRepo, type SampleRepo } from './repos.js';
import { check, intentsInput, uniq, warmUp } from './runs.js';
import { stepsSession } from './sessions.js';
import { procCpuSeconds, sampleMemory } from './worker-process.js';
import { withWorker } from './workers.js';

export interface ConcurrencyVariant {
  readonly runs: number;
  /** All runs in one repository (else one repository per run). */
  readonly oneRepo: boolean;
}

/** R runs in one repository (one issue each: 1…R), as a batch on one repository does. */
async function oneRepoRuns(runs: number): Promise<SampleRepo[]> {
  const { repoPath, issue } = await newRepo();
  const text = await readFile(localIssuePath(repoPath, issue), 'utf8');
  const issues = Array.from({ length: runs }, (_, i) => 1000 + i);
  await Promise.all(issues.map((n) => writeFile(localIssuePath(repoPath, n), text)));
  return issues.map((n) => ({ repoPath, issue: n }));
}

/** A run whose workflow failed, as a result the phase can count. */
function failedRun(err: unknown): { outcome: 'failed'; reason: string; steps: readonly unknown[] } {
  const cause = err instanceof WorkflowFailedError ? err.cause : err;
  const reason =
    cause instanceof Error
      ? `${cause.message}${cause.cause instanceof Error ? `: ${cause.cause.message}` : ''}`
      : String(cause);
  return { outcome: 'failed', reason, steps: [] };
}

export async function concurrentRuns(ctx: BenchContext, variant: ConcurrencyVariant): Promise<Record<string, number>> {
  const { concurrentSteps: steps, concurrentLatencyMs: latencyMs } = ctx.cfg;
  const runs = variant.runs;
  const model = await createModelServer({ session: stepsSession({ steps, latencyMs }) });
  const artifactsDir = join(ctx.dir, 'artifacts');
  try {
    return await withWorker(ctx, model, async (taskQueue, worker) => {
      const warm = await newRepo();
      await warmUp(ctx, taskQueue, intentsInput(warm.repoPath, warm.issue, artifactsDir, 3));
      const single = await newRepo();
      const one = await durableRun(
        ctx.client,
        taskQueue,
        uniq('single'),
        intentsInput(single.repoPath, single.issue, artifactsDir, steps),
        120_000,
      );
      check('single run', one.result.outcome === 'success', one.result.reason);
      const repos = variant.oneRepo
        ? await oneRepoRuns(runs)
        : await Promise.all(Array.from({ length: runs }, () => newRepo()));
      const memory = sampleMemory(worker.pid, 100);
      const cpu0 = {
        worker: procCpuSeconds(worker.pid) ?? 0,
        workerChildren: procCpuSeconds(worker.pid, true) ?? 0,
        server: procCpuSeconds(ctx.server.pid() ?? -1) ?? 0,
        self: process.cpuUsage(),
      };
      const started = performance.now();
      const handles = await Promise.all(
        repos.map((r) =>
          startRun(ctx.client, taskQueue, uniq('conc'), intentsInput(r.repoPath, r.issue, artifactsDir, steps)),
        ),
      );
      const results = await withTimeout(
        // A failed run fails its workflow: counted (with its reason), not thrown.
        Promise.all(handles.map((h) => h.result().catch((err: unknown) => failedRun(err)))),
        runs * 6_000,
        `${runs} concurrent runs`,
      );
      const wallMs = performance.now() - started;
      const mem = memory.stop();
      const cpu = {
        worker: (procCpuSeconds(worker.pid) ?? 0) - cpu0.worker,
        workerChildren:
          (procCpuSeconds(worker.pid, true) ?? 0) -
          cpu0.workerChildren -
          ((procCpuSeconds(worker.pid) ?? 0) - cpu0.worker),
        server: (procCpuSeconds(ctx.server.pid() ?? -1) ?? 0) - cpu0.server,
        self: (() => {
          const d = process.cpuUsage(cpu0.self);
          return (d.user + d.system) / 1e6;
        })(),
      };
      const wallS = wallMs / 1000;
      const perRunMs = (seconds: number): number => Math.round((seconds * 1000) / runs);
      // Every process's CPU for the runs over every core, against one run's wall.
      const cpuBound = (cpu.worker + cpu.workerChildren + cpu.server) / cpus().length / (one.wallMs / 1000);
      const ok = results.filter((r) => r.outcome === 'success' && r.steps.length === steps).length;
      const sample = await Promise.all(handles.slice(0, 5).map((h) => timeBreakdown(h)));
      const avg = (f: (b: TimeBreakdown) => number): number =>
        Math.round(sample.reduce((a, b) => a + f(b), 0) / sample.length / steps);
      note(
        `  per step of a concurrent run (mean of ${sample.length} runs): activities queue ${avg((b) => b.activityQueueMs)} ms / exec ${avg((b) => b.activityExecMs)} ms, ` +
          `workflow tasks queue ${avg((b) => b.workflowTaskQueueMs)} ms / exec ${avg((b) => b.workflowTaskExecMs)} ms; ` +
          Object.entries(sample[0]!.byActivity)
            .map(([k, v]) => `${k} q${Math.round(v.queueMs / v.count)}/x${Math.round(v.execMs / v.count)} ms`)
            .join(', '),
      );
      if (ok !== runs)
        note(`  ${runs - ok} of ${runs} runs did not succeed: ${results.find((r) => r.outcome !== 'success')?.reason}`);
      note(
        `  ${runs} concurrent runs × ${steps} steps at ${latencyMs} ms: ${Math.round(wallMs)} ms vs one run ${Math.round(one.wallMs)} ms; worker peak RSS ${mem.peakRssMb.toFixed(0)} MB`,
      );
      note(
        `  CPU per run: worker ${perRunMs(cpu.worker)} ms, its children ${perRunMs(cpu.workerChildren)} ms, dev server ${perRunMs(cpu.server)} ms\n` +
          `  CPU busy during the phase: worker ${(cpu.worker / wallS).toFixed(2)} cores, its spawner helper and git/bash children ${(cpu.workerChildren / wallS).toFixed(2)}, dev server ${(cpu.server / wallS).toFixed(2)}, bench process (client + model server) ${(cpu.self / wallS).toFixed(2)}; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} CPUs`,
      );
      return {
        concurrentRuns: runs,
        concurrentSucceeded: ok,
        concurrentSteps: steps,
        concurrentLatencyMs: latencyMs,
        singleRunMs: Math.round(one.wallMs),
        concurrentWallMs: Math.round(wallMs),
        concurrentWallRatio: roundTo(wallMs / one.wallMs, 2),
        stepsPerSecond: roundTo((runs * steps) / (wallMs / 1000), 1),
        workerPeakRssMb: Math.round(mem.peakRssMb),
        workerVmHwmMb: Math.round(mem.hwmMb),
        concurrentCpuCoresWorker: roundTo(cpu.worker / wallS, 2),
        concurrentCpuCoresWorkerChildren: roundTo(cpu.workerChildren / wallS, 2),
        concurrentCpuCoresServer: roundTo(cpu.server / wallS, 2),
        concurrentCpuCoresBench: roundTo(cpu.self / wallS, 2),
        concurrentLoadAvg: roundTo(loadavg()[0]!, 1),
        // The dev server's own CPU for these runs spread over every core, against one run's
        // wall: no worker can bring concurrentWallRatio below it on this machine.
        concurrentServerBoundRatio: roundTo(cpu.server / cpus().length / (one.wallMs / 1000), 2),
        // What one run costs in CPU (the cost that grows with the work), and the wall ratio
        // that all of it spread over every core allows: no scheduling beats it.
        cpuMsPerRunWorker: perRunMs(cpu.worker),
        cpuMsPerRunWorkerChildren: perRunMs(cpu.workerChildren),
        cpuMsPerRunServer: perRunMs(cpu.server),
        concurrentCpuBoundRatio: roundTo(cpuBound, 2),
        concurrentVsCpuBound: roundTo(wallMs / one.wallMs / cpuBound, 2),
      };
    });
  } finally {
    await model.close();
  }
}
