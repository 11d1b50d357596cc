/**
 * Phase `long`: one run of 300 steps (the intents fixture agent, the model answering at
 * once), to find any cost that grows with the run: the median step interval of the last
 * 50 steps against the first 50 (StepContext, prompt variables, search attributes,
 * progress, replay), history events per step over the whole chain of runs (continue-as-
 * new keeps each run's history bounded), and the resume after a worker is killed
 * mid-step at step ~290 against the same at step ~11: from the replacement worker's spawn
 * to the model request of the step after the interrupted one, which includes the replay
 * of the run's history on a worker that never saw it.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WorkflowHandle } from '@temporalio/client';
import { tsToMs } from '@temporalio/common';
import { createModelServer, type ModelServer } from '../../../src/dev/model-server/model-server.js';
import type { SessionScript } from '../../../src/dev/model-server/session-script.js';
import type { BenchContext } from '../context.js';
import { historyFacts, intervals, median, startRun, withTimeout } from '../durable.js';
import { roundTo, type Figures } from '../figures.js';
import { note } from '../log.js';
import type { BenchPhase } from '../phase.js';
import { newRepo } from '../repos.js';
import { check, intentsInput, uniq } from '../runs.js';
import { stepsSession } from '../sessions.js';
import { resumeFacts } from './long-resume-facts.js';
import { spawnWorker, type WorkerProcess } from '../worker-process.js';
import { track } from '../workers.js';

export const LONG_STEPS = 300;
const KILLS = [11, 290] as const;
const WINDOW = 50;
const HEARTBEAT_TIMEOUT_MS = 3000;
/** The interrupted step's first answer waits this long (the kill lands inside it). */
const HELD_MS = 4000;

/** The steps session, with the first answer of each kill step held back (times: 1; the retry answers at once). */
function longSession(): SessionScript {
  const base = stepsSession({ steps: LONG_STEPS, latencyMs: 0 });
  const held = KILLS.map((k) => ({
    id: `held-${k}`,
    times: 1,
    when: { promptContains: [`Step continuation.build · Iteration ${k}`] },
    respond: {
      json: { stepId: 'continuation.build', summary: 'building', next_action: { action: 'next' } },
      delayMs: HELD_MS,
    },
  }));
  return { ...base, rules: [...held, ...base.rules] };
}

interface Chain {
  readonly runIds: readonly string[];
  readonly events: number;
  readonly stepEnds: number[];
  readonly runs: number;
}

/** Every run of the workflow id (continue-as-new makes a chain), oldest first. */
async function chainFacts(ctx: BenchContext, workflowId: string): Promise<Chain> {
  const runIds: Array<{ runId: string; start: number }> = [];
  for await (const execution of ctx.client.workflow.list({ query: `WorkflowId="${workflowId}"` }))
    runIds.push({ runId: execution.runId, start: execution.startTime.getTime() });
  runIds.sort((a, b) => a.start - b.start);
  let events = 0;
  const stepEnds: number[] = [];
  for (const { runId } of runIds) {
    const facts = await historyFacts(ctx.client.workflow.getHandle(workflowId, runId));
    events += facts.events;
    stepEnds.push(...facts.stepEnds);
  }
  return { runIds: runIds.map((r) => r.runId), events, stepEnds, runs: runIds.length };
}

async function waitFor(what: string, ms: number, done: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`long: ${what} did not happen within ${Math.round(ms / 1000)} s`);
    await sleep(20);
  }
}

/** Kills `worker` inside step `k`'s held answer; returns spawn → the next step's request of its replacement. */
async function killAndResume(
  ctx: BenchContext,
  handle: WorkflowHandle,
  model: ModelServer,
  worker: WorkerProcess,
  k: number,
  spawn: () => WorkerProcess,
): Promise<{ resumeMs: number; afterRetryMs: number; next: WorkerProcess }> {
  await waitFor(`step ${k}`, 600_000, () => (model.stats().byRule[`held-${k}`] ?? 0) >= 1);
  await sleep(300);
  await worker.kill('SIGKILL');
  // Spawned once the server has noticed (heartbeat timeout) and the retry is due, as the resume phase does.
  let retryAt = 0;
  await waitFor('the retry of the killed step', 120_000, async () => {
    const d = await handle.describe().catch(() => undefined);
    const retried = (d?.raw.pendingActivities ?? []).find((a) => (a.attempt ?? 1) > 1);
    if (retried === undefined) return false;
    retryAt = retried.nextAttemptScheduleTime ? tsToMs(retried.nextAttemptScheduleTime) : Date.now();
    return true;
  });
  await sleep(Math.max(0, retryAt + 50 - Date.now()));
  const requestsAtSpawn = model.stats().log.length;
  const next = track(spawn());
  const spawnedAt = next.spawnedAt;
  let readyMs = Number.NaN;
  void next.ready.then((at) => (readyMs = at - spawnedAt)).catch(() => undefined);
  // The retried step's request, then the next step's: that one needs the workflow task (the replay).
  await waitFor(`step ${k} retried`, 180_000, () => model.stats().log.length >= requestsAtSpawn + 1);
  const retriedMs = performance.now() - spawnedAt;
  await waitFor(`resume after step ${k}`, 180_000, () => model.stats().log.length >= requestsAtSpawn + 2);
  const resumeMs = performance.now() - spawnedAt;
  note(
    `  step ${k}: replacement polled ${Math.round(readyMs)} ms after its spawn, the step's retry asked the model at ${Math.round(retriedMs)} ms, step ${k + 1} at ${Math.round(resumeMs)} ms`,
  );
  return { resumeMs, afterRetryMs: resumeMs - retriedMs, next };
}

export const long: BenchPhase = {
  name: 'long',
  budgetMs: 900_000,
  rows: [
    { key: 'longRunSteps', unit: '' },
    { key: 'historyEventsPerStepLong', unit: '' },
    { key: 'lateVsEarlyStepMs', unit: '×', max: 1.2 },
    { key: 'resumeLateVsEarly', unit: '×', max: 2 },
  ],
  title: () => `long (one run of ${LONG_STEPS} steps; worker killed at steps ${KILLS.join(' and ')})`,
  async run(ctx): Promise<Figures> {
    const model = await createModelServer({ session: longSession() });
    const taskQueue = uniq('long');
    const spawn = (): WorkerProcess =>
      spawnWorker({ address: ctx.server.address, taskQueue, modelUrl: model.url, bundlePath: ctx.bundlePath });
    let worker = track(spawn());
    try {
      await withTimeout(worker.ready, 90_000, 'worker start');
      const repo = await newRepo();
      const workflowId = uniq('long');
      const handle = await startRun(ctx.client, taskQueue, workflowId, {
        ...intentsInput(repo.repoPath, repo.issue, join(ctx.dir, 'artifacts'), LONG_STEPS),
        tuning: { heartbeatTimeoutMs: HEARTBEAT_TIMEOUT_MS },
      });
      const resumes: number[] = [];
      const afterRetry: number[] = [];
      for (const k of KILLS) {
        const r = await killAndResume(ctx, handle, model, worker, k, spawn);
        resumes.push(r.resumeMs);
        afterRetry.push(r.afterRetryMs);
        worker = r.next;
        note(
          `  killed at step ${k}: the replacement worker reached step ${k + 1} ${Math.round(r.resumeMs)} ms after its spawn`,
        );
      }
      const result = await withTimeout(handle.result(), 600_000, 'the long run');
      check(
        'long run',
        result.outcome === 'success' && result.iterations === LONG_STEPS,
        `${result.outcome} after ${result.iterations} steps: ${result.reason}`,
      );
      const chain = await chainFacts(ctx, workflowId);
      const gaps = intervals(chain.stepEnds);
      const early = median(gaps.slice(0, WINDOW));
      const late = median(gaps.slice(-WINDOW));
      note(
        `  ${result.iterations} steps in ${chain.runs} run(s) of the chain, ${chain.events} events; median step ${Math.round(early)} ms (first ${WINDOW}) vs ${Math.round(late)} ms (last ${WINDOW})`,
      );
      const facts = await resumeFacts(ctx.client, workflowId, chain.runIds);
      const [first, last] = [facts.resumes[0], facts.resumes[facts.resumes.length - 1]];
      note(
        `  resumed runs: ${facts.resumes.map((r) => `${r.replayEvents} events replayed in a workflow task of ${r.replayTaskMs} ms (queued ${r.taskQueueMs} ms), start input ${r.inputBytes} B`).join('; ')}; ` +
          `start input of each run of the chain ${facts.inputBytes.join(', ')} B; workflow tasks timed out on a sticky queue: ${facts.stickyTimeouts}`,
      );
      return {
        longRunSteps: result.iterations,
        longRunChainRuns: chain.runs,
        historyEventsPerStepLong: roundTo(chain.events / result.iterations, 1),
        longStepMsEarly: Math.round(early),
        longStepMsLate: Math.round(late),
        lateVsEarlyStepMs: roundTo(late / early, 2),
        resumeMsEarly: Math.round(resumes[0]!),
        resumeMsLate: Math.round(resumes[1]!),
        resumeLateVsEarly: roundTo(resumes[1]! / resumes[0]!, 2),
        // The part after the retried step's model request: the workflow task that replays the run's history.
        resumeAfterRetryMsEarly: Math.round(afterRetry[0]!),
        resumeAfterRetryMsLate: Math.round(afterRetry[1]!),
        // What each resume had to read: the events replayed, the run's start input (carried state).
        resumeReplayEventsEarly: first?.replayEvents ?? -1,
        resumeReplayEventsLate: last?.replayEvents ?? -1,
        resumeReplayTaskMsEarly: first?.replayTaskMs ?? -1,
        resumeReplayTaskMsLate: last?.replayTaskMs ?? -1,
        resumeInputBytesEarly: first?.inputBytes ?? -1,
        resumeInputBytesLate: last?.inputBytes ?? -1,
        longMaxCarriedInputBytes: Math.max(0, ...facts.inputBytes.slice(1)),
        // A dead worker's sticky queue waited out (10 s each); 0 since src/worker/sticky-reset.ts.
        resumeStickyTimeouts: facts.stickyTimeouts,
      };
    } finally {
      await worker.kill('SIGKILL');
      await model.close();
    }
  },
};
