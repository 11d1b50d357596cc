/**
 * `npm run bench [-- --json] [-- --quick]`: what durability costs, as ratios against a
 * plain in-process loop, on a private Temporal dev server (SQLite, free ports, never
 * 7233) with the offline model server answering after a fixed latency. Not a test:
 * it prints a table (or, with --json, one JSON object on stdout; progress on stderr).
 *
 * Phases (each bounded in time):
 *   floor       the Temporal-only floor: a workflow awaiting one no-op activity per step
 *   overhead    N-step runs of the intents fixture agent, durable vs in-process, interleaved
 *   ratio       the same at 500 ms model latency
 *   history     history bytes per step while every step's bash prints 1 MB
 *   concurrency R runs at once on one worker: wall vs one run, steps/s, worker peak RSS
 *   one-repo    the same with all R runs in one repository (one issue each)
 *   r200        200 runs at once (every run must succeed; worker peak RSS)
 *   resume      SIGKILL a worker mid-step; time from a new worker's spawn to the step's progress
 *               (the replacement is the compiled worker, dist/worker.js, rebuilt when stale)
 *
 * Bounds measured in the same run, so a missed target can be read against what the
 * platform allows on this machine: floorHostQueueMsPerStep (one activity per step on
 * another task queue, as our steps are), ratioFloorBound (that floor alone at 500 ms),
 * concurrentServerBoundRatio (the dev server's CPU for the R runs over all cores, against
 * one run's wall) and resumeFloorMs (spawn → polling of a bare SDK worker).
 */
import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection, WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { tsToMs } from '@temporalio/common';
import { bundleWorkflowCode } from '@temporalio/worker';
import type { RunInput } from '../src/contracts/run.js';
import { createModelServer, type ModelServer } from '../src/dev/model-server/model-server.js';
import { loadSessionScript, type SessionScript } from '../src/dev/model-server/session-script.js';
import { PROJECT_ROOT } from '../src/host/project-root.js';
import { DISPATCH_DYNAMIC_CONFIG } from '../src/host/temporal/ensure-temporal.js';
import { createSampleRepo, DEMO_DIR } from '../src/dev/sample-repo.js';
import { localIssuePath } from '../src/activities/issues/local-issue-store.js';
import { WORKFLOWS_PATH } from '../src/worker/create-run-worker.js';
import { progressQuery } from '../src/workflows/run/messages.js';
import { startPrivateDevServer, type PrivateDevServer } from './bench/bench-server.js';
import {
  durableRun,
  historyFacts,
  intervals,
  median,
  startRun,
  timeBreakdown,
  withTimeout,
  type TimeBreakdown,
} from './bench/durable.js';
import { floorPhase } from './bench/floor.js';
import { runInProcess } from './bench/in-process.js';
import { INTENTS_AGENT, stepsSession } from './bench/sessions.js';
import { procCpuSeconds, sampleMemory, spawnWorker, type WorkerProcess } from './bench/worker-process.js';
import { ensureCompiled } from './bench/compiled-worker.js';
import { resumeFloorMs } from './bench/resume-floor.js';

const HELP = `Usage: npm run bench [-- --json] [-- --quick]

Measures the cost of durability on a private Temporal dev server (SQLite, free ports)
with the offline model server. Prints a table with targets and PASS/MISS.

  --json    print one JSON object on stdout (progress goes to stderr)
  --quick   a shorter run (fewer repetitions and steps; R stays 50)
  --only P  run only these phases (comma-separated: floor,overhead,ratio,history,concurrency,one-repo,r200,resume)
  --wal     start the dev server with --sqlite-pragma journal_mode=WAL and synchronous=NORMAL
  --profile DIR  write a V8 CPU profile of each run worker into DIR (workers then stop gracefully)
  --server-defaults  leave out the dev server's dispatch settings (DISPATCH_DYNAMIC_CONFIG), to compare
  --help    this text
`;

interface Config {
  readonly quick: boolean;
  readonly overheadSteps: number;
  readonly overheadLatencyMs: number;
  readonly overheadReps: number;
  readonly floorReps: number;
  readonly ratioSteps: number;
  readonly ratioReps: number;
  readonly historySteps: readonly [number, number];
  readonly concurrentRuns: number;
  readonly concurrentSteps: number;
  readonly concurrentLatencyMs: number;
}

function config(quick: boolean): Config {
  return quick
    ? {
        quick,
        overheadSteps: 20,
        overheadLatencyMs: 100,
        overheadReps: 1,
        floorReps: 3,
        ratioSteps: 20,
        ratioReps: 1,
        historySteps: [4, 8],
        concurrentRuns: 50,
        concurrentSteps: 4,
        concurrentLatencyMs: 500,
      }
    : {
        quick,
        overheadSteps: 24,
        overheadLatencyMs: 100,
        overheadReps: 3,
        floorReps: 5,
        ratioSteps: 20,
        ratioReps: 2,
        historySteps: [4, 12],
        concurrentRuns: 50,
        concurrentSteps: 5,
        concurrentLatencyMs: 500,
      };
}

/** Issue 14's targets. */
const TARGETS = {
  overheadMsPerStep: { max: 25, unit: 'ms' },
  overheadVsFloor: { max: 2, unit: '×' },
  ratioVsInProcess: { max: 1.05, unit: '×' },
  historyBytesPerStep: { max: 8192, unit: 'B' },
  concurrentWallRatio: { max: 2, unit: '×' },
  workerPeakRssMb: { max: 600, unit: 'MB' },
  resumeMs: { max: 1000, unit: 'ms' },
} as const;
type TargetKey = keyof typeof TARGETS;

let jsonMode = false;
/** --profile DIR: CPU profiles of the run workers (stopped with SIGTERM so that V8 writes them). */
let cpuProfileDir: string | undefined;
function note(message: string): void {
  (jsonMode ? process.stderr : process.stdout).write(`${message}\n`);
}

interface Bench {
  readonly dir: string;
  readonly server: PrivateDevServer;
  readonly client: Client;
  readonly connection: Connection;
  readonly bundlePath: string;
  readonly cleanups: Array<() => Promise<unknown>>;
}

let seq = 0;
const uniq = (prefix: string): string => `${prefix}-${process.pid}-${Date.now().toString(36)}-${++seq}`;

const repos: string[] = [];
let template: Promise<{ repoPath: string; issue: number }> | undefined;
/** A fresh sample repository: a copy of one createSampleRepo() result (git init + commit once). */
async function newRepo(): Promise<{ repoPath: string; issue: number }> {
  template ??= createSampleRepo().then((r) => (repos.push(r.repoPath), r));
  const { repoPath: source, issue } = await template;
  const repoPath = await mkdtemp(join(tmpdir(), 'issue-agent-bench-repo-'));
  repos.push(repoPath);
  await cp(source, repoPath, { recursive: true });
  return { repoPath, issue };
}

const liveWorkers: WorkerProcess[] = [];
function track(worker: WorkerProcess): WorkerProcess {
  liveWorkers.push(worker);
  void worker.exited.then(() => liveWorkers.splice(liveWorkers.indexOf(worker), 1));
  return worker;
}

async function withWorker<T>(
  bench: Bench,
  model: ModelServer,
  fn: (taskQueue: string, worker: WorkerProcess) => Promise<T>,
): Promise<T> {
  const taskQueue = uniq('bench');
  const worker = track(
    spawnWorker({
      address: bench.server.address,
      taskQueue,
      modelUrl: model.url,
      bundlePath: bench.bundlePath,
      ...(cpuProfileDir === undefined ? {} : { cpuProfileDir }),
    }),
  );
  try {
    await withTimeout(worker.ready, 90_000, 'worker start');
    return await fn(taskQueue, worker);
  } finally {
    if (cpuProfileDir !== undefined) await withTimeout(worker.kill('SIGTERM'), 30_000, 'worker stop').catch(() => {});
    await worker.kill('SIGKILL');
  }
}

function intentsInput(repoPath: string, issue: number, artifactsDir: string, steps: number): RunInput {
  return { issue, agentDir: INTENTS_AGENT, repoPath, issueSource: 'local', artifactsDir, maxIterations: steps + 2 };
}

/** A warm-up run (module loading, the bundle in the worker's isolate, JIT); its outcome does not matter. */
async function warmUp(bench: Bench, taskQueue: string, input: RunInput): Promise<void> {
  await durableRun(bench.client, taskQueue, uniq('warm'), input, 60_000).catch((err: unknown) => {
    if (!(err instanceof WorkflowFailedError)) throw err;
  });
}

function check(what: string, ok: boolean, detail: string): void {
  if (!ok) throw new Error(`${what}: ${detail}`);
}

// ── overhead and ratio ────────────────────────────────────────────────────────

interface PairResult {
  readonly durableMs: number[];
  readonly inProcessMs: number[];
  readonly durableStepMs: number[];
  readonly inProcessStepMs: number[];
  readonly breakdowns: TimeBreakdown[];
}

async function pairs(bench: Bench, steps: number, latencyMs: number, reps: number): Promise<PairResult> {
  const model = await createModelServer({ session: stepsSession({ steps, latencyMs }) });
  const artifactsDir = join(bench.dir, 'artifacts');
  const out: PairResult = { durableMs: [], inProcessMs: [], durableStepMs: [], inProcessStepMs: [], breakdowns: [] };
  try {
    await withWorker(bench, model, async (taskQueue) => {
      // One warm-up run each (module loading, bundle in the worker's isolate, JIT).
      // The session scripts `steps` steps, so a 3-iteration run ends failed: only its warmth counts.
      const warm = await newRepo();
      await warmUp(bench, taskQueue, intentsInput(warm.repoPath, warm.issue, artifactsDir, 3));
      const warm2 = await newRepo();
      await runInProcess(intentsInput(warm2.repoPath, warm2.issue, artifactsDir, 3), model.url);
      for (let rep = 0; rep < reps; rep += 1) {
        const a = await newRepo();
        const d = await durableRun(
          bench.client,
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

// ── history ───────────────────────────────────────────────────────────────────

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

async function historyPhase(bench: Bench, stepCounts: readonly [number, number]): Promise<Record<string, number>> {
  const bytesOut = 1024 * 1024;
  const sizes: Array<{ steps: number; bytes: number; events: number; bigArtifacts: number }> = [];
  for (const steps of stepCounts) {
    const model = await createModelServer({
      session: stepsSession({ steps, latencyMs: 0, toolOutputBytes: bytesOut }),
    });
    const artifactsDir = await mkdtemp(join(bench.dir, 'artifacts-history-'));
    try {
      await withWorker(bench, model, async (taskQueue) => {
        const repo = await newRepo();
        const run = await durableRun(
          bench.client,
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
        const bigArtifacts = await countBigArtifacts(artifactsDir, bytesOut);
        check(
          '1 MB tool outputs',
          bigArtifacts >= steps,
          `expected >= ${steps} artifacts of 1 MB, found ${bigArtifacts}`,
        );
        sizes.push({ steps, bytes: facts.bytes, events: facts.events, bigArtifacts });
        note(
          `  ${steps} steps × 1 MB tool output: history ${facts.bytes} B, ${facts.events} events, ${bigArtifacts} 1 MB artifacts on disk`,
        );
      });
    } finally {
      await model.close();
    }
  }
  const [a, b] = sizes as [(typeof sizes)[0], (typeof sizes)[0]];
  return {
    historyBytesPerStep: Math.round((b.bytes - a.bytes) / (b.steps - a.steps)),
    historyBytesPerStepAvg: Math.round(b.bytes / b.steps),
    historyBytesTotal: b.bytes,
    historyEventsTotal: b.events,
    historyEventsPerStep: Math.round(((b.events - a.events) / (b.steps - a.steps)) * 10) / 10,
    historySteps: b.steps,
  };
}

// ── concurrency ───────────────────────────────────────────────────────────────

/** R runs in one repository (one issue each: 1…R), as a batch on one repository does. */
async function oneRepoRuns(runs: number): Promise<Array<{ repoPath: string; issue: number }>> {
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

interface ConcurrencyVariant {
  readonly runs: number;
  /** All runs in one repository (else one repository per run). */
  readonly oneRepo: boolean;
}

async function concurrencyPhase(
  bench: Bench,
  cfg: Config,
  variant: ConcurrencyVariant,
): Promise<Record<string, number>> {
  const { concurrentSteps: steps, concurrentLatencyMs: latencyMs } = cfg;
  const runs = variant.runs;
  const model = await createModelServer({ session: stepsSession({ steps, latencyMs }) });
  const artifactsDir = join(bench.dir, 'artifacts');
  try {
    return await withWorker(bench, model, async (taskQueue, worker) => {
      const warm = await newRepo();
      await warmUp(bench, taskQueue, intentsInput(warm.repoPath, warm.issue, artifactsDir, 3));
      const single = await newRepo();
      const one = await durableRun(
        bench.client,
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
        server: procCpuSeconds(bench.server.pid() ?? -1) ?? 0,
        self: process.cpuUsage(),
      };
      const started = performance.now();
      const handles = await Promise.all(
        repos.map((r) =>
          startRun(bench.client, taskQueue, uniq('conc'), intentsInput(r.repoPath, r.issue, artifactsDir, steps)),
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
        server: (procCpuSeconds(bench.server.pid() ?? -1) ?? 0) - cpu0.server,
        self: (() => {
          const d = process.cpuUsage(cpu0.self);
          return (d.user + d.system) / 1e6;
        })(),
      };
      const wallS = wallMs / 1000;
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
        `  CPU busy during the phase: worker ${(cpu.worker / wallS).toFixed(2)} cores, its spawner helper and git/bash children ${(cpu.workerChildren / wallS).toFixed(2)}, dev server ${(cpu.server / wallS).toFixed(2)}, bench process (client + model server) ${(cpu.self / wallS).toFixed(2)}; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} CPUs`,
      );
      return {
        concurrentRuns: runs,
        concurrentSucceeded: ok,
        concurrentSteps: steps,
        concurrentLatencyMs: latencyMs,
        singleRunMs: Math.round(one.wallMs),
        concurrentWallMs: Math.round(wallMs),
        concurrentWallRatio: Math.round((wallMs / one.wallMs) * 100) / 100,
        stepsPerSecond: Math.round(((runs * steps) / (wallMs / 1000)) * 10) / 10,
        workerPeakRssMb: Math.round(mem.peakRssMb),
        workerVmHwmMb: Math.round(mem.hwmMb),
        concurrentCpuCoresWorker: Math.round((cpu.worker / wallS) * 100) / 100,
        concurrentCpuCoresWorkerChildren: Math.round((cpu.workerChildren / wallS) * 100) / 100,
        concurrentCpuCoresServer: Math.round((cpu.server / wallS) * 100) / 100,
        concurrentCpuCoresBench: Math.round((cpu.self / wallS) * 100) / 100,
        concurrentLoadAvg: Math.round(loadavg()[0]! * 10) / 10,
        // The dev server's own CPU for these runs spread over every core, against one run's
        // wall: no worker can bring concurrentWallRatio below it on this machine.
        concurrentServerBoundRatio: Math.round((cpu.server / cpus().length / (one.wallMs / 1000)) * 100) / 100,
      };
    });
  } finally {
    await model.close();
  }
}

// ── resume ────────────────────────────────────────────────────────────────────

async function resumePhase(bench: Bench, heartbeatTimeoutMs: number): Promise<Record<string, number>> {
  const demo = loadSessionScript(join(DEMO_DIR, 'session.json'));
  const session: SessionScript = {
    ...demo,
    rules: demo.rules.map((r) =>
      r.id === 'work-test-commit' ? { ...r, respond: { ...r.respond, delayMs: 1500 } } : r,
    ),
  };
  const model = await createModelServer({ session });
  const taskQueue = uniq('resume');
  const workerEnv = { address: bench.server.address, taskQueue, modelUrl: model.url, bundlePath: bench.bundlePath };
  // The run starts on the tsx worker (its start is the tsx figure) and resumes on the
  // compiled one, which is what an installed user runs (`issue-agent worker`).
  let first: WorkerProcess | undefined = track(spawnWorker(workerEnv));
  let second: WorkerProcess | undefined;
  try {
    const tsxReadyMs = (await withTimeout(first.ready, 90_000, 'worker start')) - first.spawnedAt;
    const repo = await newRepo();
    const handle = await startRun(bench.client, taskQueue, uniq('resume'), {
      issue: repo.issue,
      agentDir: PROJECT_ROOT,
      repoPath: repo.repoPath,
      issueSource: 'local',
      artifactsDir: join(bench.dir, 'artifacts'),
      tuning: { heartbeatTimeoutMs },
    });
    const deadline = Date.now() + 120_000;
    while ((model.stats().byRule['work-test-commit'] ?? 0) < 1) {
      if (Date.now() > deadline) throw new Error('resume: the work step never reached turn 1');
      await sleep(20);
    }
    await sleep(200);
    const killedAt = performance.now();
    await first.kill('SIGKILL');
    first = undefined;
    // The server notices the dead worker when the step's heartbeat times out; the retry
    // is then scheduled (initial interval 2 s). Start the replacement worker then.
    let detectedAt = 0;
    let retryAt = 0;
    while (detectedAt === 0) {
      const d = await handle.describe().catch(() => undefined);
      const retried = (d?.raw.pendingActivities ?? []).find((a) => (a.attempt ?? 1) > 1);
      if (retried) {
        detectedAt = performance.now();
        retryAt = retried.nextAttemptScheduleTime ? tsToMs(retried.nextAttemptScheduleTime) : Date.now();
      } else await sleep(50);
      if (performance.now() - killedAt > 120_000) throw new Error('resume: the server never noticed the dead worker');
    }
    // The retry is dispatchable only after its backoff (initial interval 2 s): a worker
    // spawned before then would be measured waiting for it. Spawn once the step waits.
    const retryWaitMs = Math.max(0, retryAt + 50 - Date.now());
    await sleep(retryWaitMs);
    const requestsAtSpawn = model.stats().log.length;
    second = track(
      spawnWorker({ ...workerEnv, compiled: true, ...(cpuProfileDir === undefined ? {} : { cpuProfileDir }) }),
    );
    const readyAt = await withTimeout(second.ready, 90_000, 'replacement worker start');
    let resumedAt = 0;
    while (resumedAt === 0) {
      if (model.stats().log.length > requestsAtSpawn) resumedAt = performance.now();
      else await sleep(10);
      if (performance.now() - killedAt > 180_000) throw new Error('resume: the step never resumed');
    }
    const result = await withTimeout(handle.result(), 120_000, 'resumed run');
    check('resumed run', result.outcome === 'success', result.reason);
    check(
      'StepContext after resume',
      /npm test/.test(String(result.handoff['initial.understand']?.['test_command'])),
      JSON.stringify(result.handoff),
    );
    const progress = await handle.query(progressQuery).catch(() => undefined);
    const afterRetry = await workflowTaskAfterRetry(handle);
    note(
      `  SIGKILL mid-step: the server noticed after ${Math.round(detectedAt - killedAt)} ms (heartbeat timeout ${heartbeatTimeoutMs} ms), the retry was due ${Math.round(retryWaitMs)} ms later; ` +
        `the replacement worker (compiled, dist/worker.js) polled ${Math.round(readyAt - second.spawnedAt)} ms after its spawn and the step resumed ${Math.round(resumedAt - second.spawnedAt)} ms after its spawn ` +
        `(${Math.round(resumedAt - killedAt)} ms after the kill); the first worker (tsx) polled ${Math.round(tsxReadyMs)} ms after its spawn; run ${progress?.phase ?? result.outcome}`,
    );
    return {
      resumeMs: Math.round(resumedAt - second.spawnedAt),
      resumeWorkerReadyMs: Math.round(readyAt - second.spawnedAt),
      // What Temporal adds once the new worker polls (the rest of resumeMs is the worker's own start).
      resumeAfterReadyMs: Math.round(resumedAt - readyAt),
      // The same start under tsx (scripts/bench/worker-child.ts, as resumeWorkerReadyMs measured before).
      resumeWorkerReadyMsTsx: Math.round(tsxReadyMs),
      resumeAfterKillMs: Math.round(resumedAt - killedAt),
      resumeDetectMs: Math.round(detectedAt - killedAt),
      // Waited after the detection for the retry's backoff before spawning the replacement.
      resumeRetryWaitMs: Math.round(retryWaitMs),
      resumeHeartbeatTimeoutMs: heartbeatTimeoutMs,
      // After the resumed step: its completion to the workflow task that acts on it (a
      // sticky queue still pointing at the dead worker is waited out here).
      resumeNextWorkflowTaskMs: afterRetry,
      // Spawn → polling of a bare SDK worker (resume-floor-worker.mjs), measured now, after the run.
      resumeFloorMs: await resumeFloorMs(bench.server.address),
    };
  } finally {
    await first?.kill('SIGKILL');
    // With --profile the replacement stops gracefully, so its profile (its start) is written.
    await second?.kill(cpuProfileDir === undefined ? 'SIGKILL' : 'SIGTERM');
    await model.close();
  }
}

/** Ms from the first retried activity's completion to the next completed workflow task (-1: none). */
async function workflowTaskAfterRetry(handle: WorkflowHandle): Promise<number> {
  const events = (await handle.fetchHistory()).events ?? [];
  const retried = events.find((e) => (e.activityTaskStartedEventAttributes?.attempt ?? 1) > 1);
  if (retried === undefined) return -1;
  const done = events.find(
    (e) =>
      e.activityTaskCompletedEventAttributes &&
      String(e.activityTaskCompletedEventAttributes.startedEventId) === String(retried.eventId),
  );
  if (done === undefined) return -1;
  const next = events.find((e) => Number(e.eventId) > Number(done.eventId) && e.workflowTaskCompletedEventAttributes);
  return next === undefined ? -1 : Math.round(tsToMs(next.eventTime) - tsToMs(done.eventTime));
}

// ── main ──────────────────────────────────────────────────────────────────────

function verdict(key: TargetKey, value: number): 'PASS' | 'MISS' {
  return Number.isFinite(value) && value <= TARGETS[key].max ? 'PASS' : 'MISS';
}

function table(results: Record<string, unknown>): string {
  const rows: string[][] = [['metric', 'value', 'target', '']];
  const num = (k: string): number => Number(results[k]);
  const add = (k: string, unit: string, target?: TargetKey): void => {
    if (results[k] === undefined) return;
    rows.push([
      k,
      `${results[k]} ${unit}`.trim(),
      target ? `≤ ${TARGETS[target].max} ${TARGETS[target].unit}` : '',
      target ? verdict(target, num(k)) : '',
    ]);
  };
  add('overheadMsPerStep', 'ms', 'overheadMsPerStep');
  add('overheadMsPerStepInterval', 'ms');
  add('floorMsPerStep', 'ms');
  add('overheadVsFloor', '×', 'overheadVsFloor');
  add('perStepHistoryEvents', '');
  add('ratioVsInProcess', '×', 'ratioVsInProcess');
  add('ratioFloorBound', '×');
  add('historyBytesPerStep', 'B', 'historyBytesPerStep');
  add('historyBytesPerStepAvg', 'B');
  add('concurrentRuns', '');
  add('concurrentWallRatio', '×', 'concurrentWallRatio');
  add('stepsPerSecond', '/s');
  add('concurrentServerBoundRatio', '×');
  add('oneRepoConcurrentWallRatio', '×');
  add('r200ConcurrentWallRatio', '×');
  add('r200ConcurrentSucceeded', '');
  add('workerPeakRssMb', 'MB', 'workerPeakRssMb');
  add('resumeMs', 'ms', 'resumeMs');
  add('resumeWorkerReadyMs', 'ms');
  add('resumeAfterReadyMs', 'ms');
  add('resumeWorkerReadyMsTsx', 'ms');
  add('resumeFloorMs', 'ms');
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help')) {
    process.stdout.write(HELP);
    return 0;
  }
  jsonMode = argv.includes('--json');
  const profileIndex = argv.indexOf('--profile');
  if (profileIndex >= 0) cpuProfileDir = argv[profileIndex + 1];
  const cfg = config(argv.includes('--quick'));
  const t0 = performance.now();
  const results: Record<string, unknown> = {};
  const errors: string[] = [];
  const dir = await mkdtemp(join(tmpdir(), 'issue-agent-bench-'));
  note(`bench: private dev server (SQLite ${join(dir, 'bench.sqlite')})${cfg.quick ? ', quick mode' : ''}`);
  const onlyIndex = argv.indexOf('--only');
  const only = onlyIndex >= 0 ? new Set((argv[onlyIndex + 1] ?? '').split(',')) : undefined;
  const wants = (name: string): boolean => only === undefined || only.has(name);
  const wal = argv.includes('--wal');
  const serverDefaults = argv.includes('--server-defaults');
  const server = await startPrivateDevServer({
    dir,
    dbName: 'bench.sqlite',
    dispatchConfig: !serverDefaults,
    ...(wal ? { sqlitePragmas: ['journal_mode=WAL', 'synchronous=NORMAL'] } : {}),
  });
  const cleanups: Array<() => Promise<unknown>> = [() => server.stop()];
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      note(`bench: ${signal}, cleaning up`);
      report(results, [...errors, `interrupted by ${signal}`], cfg, t0);
      void Promise.all(liveWorkers.map((w) => w.kill('SIGKILL')))
        .then(() => server.stop())
        .then(() =>
          Promise.all([dir, ...repos].map((d) => rm(d, { recursive: true, force: true }).catch(() => undefined))),
        )
        .finally(() => process.exit(130));
    });
  }
  results.sqlite = wal ? 'WAL, synchronous=NORMAL' : 'default pragmas';
  results.serverDispatchConfig = serverDefaults ? 'server defaults' : DISPATCH_DYNAMIC_CONFIG.join(' ');
  try {
    const connection = await Connection.connect({ address: server.address });
    cleanups.unshift(() => connection.close());
    const client = new Client({ connection, namespace: server.namespace });
    const { code } = await bundleWorkflowCode({
      workflowsPath: WORKFLOWS_PATH,
      logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} } as never,
    });
    const bundlePath = join(dir, 'workflow-bundle.js');
    await writeFile(bundlePath, code);
    const bench: Bench = { dir, server, client, connection, bundlePath, cleanups };

    const phase = async (name: string, fn: () => Promise<void>, budgetMs = 240_000): Promise<void> => {
      const started = performance.now();
      note(`${name}…`);
      try {
        // A stuck phase is abandoned (its workers are killed at the end), never waited for.
        await withTimeout(fn(), budgetMs, `phase ${name.split(' ')[0]}`);
      } catch (err) {
        errors.push(`${name}: ${err instanceof Error ? err.message : String(err)}`);
        note(`  ${name} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
      note(`  (${Math.round((performance.now() - started) / 1000)} s)`);
    };

    if (wants('floor') || wants('overhead'))
      await phase(`floor (one no-op activity per step, ${cfg.overheadSteps} steps, ${cfg.floorReps} rep)`, async () => {
        const floor = await floorPhase({
          client,
          address: server.address,
          dir,
          steps: cfg.overheadSteps,
          reps: cfg.floorReps,
          uniq,
          track,
        });
        Object.assign(results, floor.figures);
        const b = floor.breakdown;
        const per = (v: number): number => Math.round((v / cfg.overheadSteps) * 10) / 10;
        note(
          `  floor ${floor.figures.floorMsPerStep} ms/step (host queue ${floor.figures.floorHostQueueMsPerStep}, local activity ${floor.figures.floorLocalMsPerStep}); ` +
            `per step: activity queue ${per(b.activityQueueMs)} ms / exec ${per(b.activityExecMs)} ms, workflow task queue ${per(b.workflowTaskQueueMs)} ms / exec ${per(b.workflowTaskExecMs)} ms, ${per(b.events)} events`,
        );
      });
    if (wants('overhead'))
      await phase(
        `overhead (${cfg.overheadSteps} steps at ${cfg.overheadLatencyMs} ms, ${cfg.overheadReps} rep)`,
        async () => {
          const r = await pairs(bench, cfg.overheadSteps, cfg.overheadLatencyMs, cfg.overheadReps);
          const perRep = r.durableMs.map((d, i) => (d - r.inProcessMs[i]!) / cfg.overheadSteps);
          results.overheadMsPerStep = Math.round(median(perRep) * 10) / 10;
          results.overheadMsPerStepInterval =
            Math.round((median(r.durableStepMs) - median(r.inProcessStepMs)) * 10) / 10;
          results.overheadSteps = cfg.overheadSteps;
          results.overheadLatencyMs = cfg.overheadLatencyMs;
          results.overheadDurableMs = Math.round(median(r.durableMs));
          results.overheadInProcessMs = Math.round(median(r.inProcessMs));
          const b = r.breakdowns[Math.floor(r.breakdowns.length / 2)]!;
          const per = (v: number): number => Math.round((v / cfg.overheadSteps) * 10) / 10;
          results.perStepActivityQueueMs = per(b.activityQueueMs);
          results.perStepActivityExecMs = per(b.activityExecMs);
          results.perStepWorkflowTaskQueueMs = per(b.workflowTaskQueueMs);
          results.perStepWorkflowTaskExecMs = per(b.workflowTaskExecMs);
          results.perStepActivities = Math.round((b.activities / cfg.overheadSteps) * 10) / 10;
          results.perStepWorkflowTasks = Math.round((b.workflowTasks / cfg.overheadSteps) * 10) / 10;
          results.perStepHistoryEvents = per(b.events);
          results.perStepEventsByType = Object.fromEntries(Object.entries(b.byEventType).map(([k, v]) => [k, per(v)]));
          for (const [type, v] of Object.entries(b.byActivity)) {
            results[`perStepActivity_${type}`] = {
              count: per(v.count),
              queueMs: per(v.queueMs),
              execMs: per(v.execMs),
            };
          }
          if (typeof results.floorMsPerStep === 'number' && results.floorMsPerStep > 0)
            results.overheadVsFloor =
              Math.round((Number(results.overheadMsPerStep) / results.floorMsPerStep) * 100) / 100;
          note(
            `  durable run, per step: ${results.perStepActivities} activities (queue ${results.perStepActivityQueueMs} ms, exec ${results.perStepActivityExecMs} ms), ` +
              `${results.perStepWorkflowTasks} workflow tasks (queue ${results.perStepWorkflowTaskQueueMs} ms, exec ${results.perStepWorkflowTaskExecMs} ms); ` +
              Object.entries(b.byActivity)
                .map(
                  ([k, v]) =>
                    `${k} ×${v.count} q${Math.round(v.queueMs / v.count)}/x${Math.round(v.execMs / v.count)} ms`,
                )
                .join(', '),
          );
        },
      );
    if (wants('ratio'))
      await phase(`ratio (${cfg.ratioSteps} steps at 500 ms, ${cfg.ratioReps} rep)`, async () => {
        const r = await pairs(bench, cfg.ratioSteps, 500, cfg.ratioReps);
        results.ratioVsInProcess = Math.round(median(r.durableMs.map((d, i) => d / r.inProcessMs[i]!)) * 1000) / 1000;
        results.ratioDurableMs = Math.round(median(r.durableMs));
        results.ratioInProcessMs = Math.round(median(r.inProcessMs));
        // What one host-queue activity per step (the floor phase) alone adds to the in-process run.
        const floor = Number(results.floorHostQueueMsPerStep);
        const inProcessMs = median(r.inProcessMs);
        if (Number.isFinite(floor))
          results.ratioFloorBound = Math.round(((inProcessMs + floor * cfg.ratioSteps) / inProcessMs) * 1000) / 1000;
      });
    if (wants('history'))
      await phase(`history (${cfg.historySteps.join(' and ')} steps, 1 MB tool output each)`, async () => {
        Object.assign(results, await historyPhase(bench, cfg.historySteps));
      });
    const concurrency = async (variant: ConcurrencyVariant, prefix: string, budgetMs: number): Promise<void> => {
      const where = variant.oneRepo ? 'one repository' : 'a repository each';
      await phase(
        `concurrency (${variant.runs} runs × ${cfg.concurrentSteps} steps at ${cfg.concurrentLatencyMs} ms, one worker, ${where})`,
        async () => {
          const r = await concurrencyPhase(bench, cfg, variant);
          const named = (k: string): string => (prefix === '' ? k : `${prefix}${k[0]!.toUpperCase()}${k.slice(1)}`);
          for (const [k, v] of Object.entries(r)) results[named(k)] = v;
          const peak = Number(results.workerPeakRssMb ?? 0);
          if (prefix !== '') results.workerPeakRssMb = Math.max(peak, r.workerPeakRssMb ?? 0);
          check(
            'concurrent runs',
            r.concurrentSucceeded === variant.runs,
            `${r.concurrentSucceeded} of ${variant.runs} succeeded`,
          );
        },
        budgetMs,
      );
    };
    if (wants('concurrency')) await concurrency({ runs: cfg.concurrentRuns, oneRepo: false }, '', 240_000);
    if (wants('one-repo')) await concurrency({ runs: cfg.concurrentRuns, oneRepo: true }, 'oneRepo', 240_000);
    if (wants('r200')) await concurrency({ runs: 200, oneRepo: false }, 'r200', 600_000);
    if (wants('resume')) {
      const build = ensureCompiled();
      if (build === 'built') note('resume: dist/ was older than src/, rebuilt it (npm run build)');
      await phase(
        'resume (SIGKILL mid-step, heartbeat timeout 10 s)',
        async () => {
          Object.assign(results, await resumePhase(bench, 10_000));
        },
        150_000,
      );
    }
  } finally {
    // An abandoned phase (timed out) may still have result polls in flight: once the
    // connection closes, their retries throw from a timer. Those are expected then.
    process.on('uncaughtException', (err) => {
      if (/Channel has been shut down/.test(err.message)) return;
      process.stderr.write(`bench failed: ${err.stack ?? err.message}\n`);
      process.exit(1);
    });
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    await Promise.all(repos.map((r) => rm(r, { recursive: true, force: true }).catch(() => undefined)));
  }
  report(results, errors, cfg, t0);
  return errors.length > 0 ? 1 : 0;
}

/** Prints the results (also the partial ones when the bench is interrupted). */
function report(results: Record<string, unknown>, errors: readonly string[], cfg: Config, t0: number): void {
  results.benchSeconds = Math.round((performance.now() - t0) / 1000);
  results.quick = cfg.quick;
  results.cpus = cpus().length;
  results.loadAvgAtEnd = Math.round(loadavg()[0]! * 10) / 10;
  const pass: Record<string, string> = {};
  for (const key of Object.keys(TARGETS) as TargetKey[])
    pass[key] = results[key] === undefined ? 'MISSING' : verdict(key, Number(results[key]));
  results.targets = Object.fromEntries(Object.entries(TARGETS).map(([k, v]) => [k, v.max]));
  results.verdicts = pass;
  if (errors.length > 0) results.errors = errors;
  if (jsonMode) process.stdout.write(`${JSON.stringify(results)}\n`);
  else {
    const errorText = errors.length > 0 ? `errors:\n  ${errors.join('\n  ')}\n` : '';
    process.stdout.write(
      `\n${table(results)}\n\n${errorText}bench took ${results.benchSeconds} s (load average ${results.loadAvgAtEnd} on ${results.cpus} CPUs)\n`,
    );
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
