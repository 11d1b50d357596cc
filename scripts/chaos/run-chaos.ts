/**
 * Fault injection over real runs (used by `npm run chaos` and test/chaos/chaos.test.ts).
 *
 * Several runs of the demo session, each on its own sample repository, against a
 * private `temporal server start-dev --db-filename <tmp>/chaos.sqlite`, served by
 * worker child processes that are SIGKILLed at random and respawned, while:
 *   - the dev server is stopped and started again mid-run (SQLite persistence);
 *   - the offline model server answers with 429 + retry-after, 529, 500, connection
 *     resets, slow answers and malformed answers (rules with `times`).
 * Then every run must have ended completed or failed with a stated reason, with no
 * duplicate boundary effect (one merge commit, one closing comment, closed once) and
 * its StepContext intact (result.handoff has the plan).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection, WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { bundleRunWorkflow } from '../bench/run-workflow-bundle.js';
import type { RunResult } from '../../src/contracts/run.js';
import { resultOfFailure } from '../../src/activities/batch/result-of-failure.js';
import { createModelServer, type ServerStats } from '../../src/dev/model-server/model-server.js';
import { loadSessionScript, type SessionRule, type SessionScript } from '../../src/dev/model-server/session-script.js';
import { git } from '../../src/activities/workspace/git/git.js';
import { PROJECT_ROOT } from '../../src/host/project-root.js';
import { createSampleRepo, DEMO_DIR } from '../../src/dev/sample-repo.js';
import { runAgentWorkflow } from '../../src/workflows/run-agent.js';
import { startPrivateDevServer } from '../bench/bench-server.js';
import { spawnWorker, type WorkerProcess } from '../bench/worker-process.js';

export interface ChaosOptions {
  readonly runs: number;
  /** SIGKILLs of worker processes, at random times while runs are live. */
  readonly workerKills: number;
  /** Dev server stop/start cycles; the first is SIGTERM, later ones alternate SIGKILL/SIGTERM. */
  readonly serverRestarts: number;
  /** How many times each model fault rule fires (across all runs). */
  readonly faultTimes: number;
  /** Live worker processes kept by the supervisor. */
  readonly workers: number;
  readonly seed: number;
  /** Hard bound for the whole chaos run. */
  readonly timeoutMs: number;
  readonly log?: (line: string) => void;
}

export const SHORT_CHAOS: Omit<ChaosOptions, 'seed'> = {
  runs: 3,
  workerKills: 3,
  serverRestarts: 1,
  faultTimes: 1,
  workers: 2,
  // Each closure of the demo session runs its tests twice (the second on the base's code: tests-alone.ts).
  timeoutMs: 230_000,
};
export const FULL_CHAOS: Omit<ChaosOptions, 'seed'> = {
  runs: 6,
  workerKills: 8,
  serverRestarts: 2,
  faultTimes: 2,
  workers: 2,
  timeoutMs: 480_000,
};

export interface RunReport {
  readonly workflowId: string;
  readonly repoPath: string;
  readonly outcome: string;
  readonly code?: string;
  readonly reason: string;
  readonly mergeCommits: number;
  readonly comments: number;
  readonly issueState: string;
  readonly planKept: boolean;
  readonly steps: readonly string[];
}

export interface ChaosReport {
  readonly seed: number;
  readonly runs: readonly RunReport[];
  readonly workerKills: number;
  readonly workerSpawns: number;
  readonly serverRestarts: ReadonlyArray<{ readonly signal: string; readonly downMs: number }>;
  readonly modelFaults: Readonly<Record<string, number>>;
  readonly modelRequests: number;
  readonly durationMs: number;
  /** Violations of the invariants; empty when everything survived. */
  readonly problems: readonly string[];
  readonly summary: string;
}

/** mulberry32: a small seeded PRNG, so a failing chaos run can be replayed with its seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The demo session, a little slower per answer, with fault rules in front (each fires `times`). */
export function chaosSession(times: number): SessionScript {
  const demo = loadSessionScript(join(DEMO_DIR, 'session.json'));
  const rule = (id: string): SessionRule => {
    const found = demo.rules.find((r) => r.id === id);
    if (!found) throw new Error(`demo session has no rule ${id}`);
    return found;
  };
  const err = (status: number, type: string, message: string, headers?: Record<string, string>) => ({
    status,
    type,
    message,
    ...(headers ? { headers } : {}),
  });
  const faults: SessionRule[] = [
    {
      id: 'fault-429',
      times,
      when: { promptContains: 'Step initial.understand', turn: 0 },
      respond: { error: err(429, 'rate_limit_error', 'chaos: rate limited', { 'retry-after': '1' }) },
    },
    {
      id: 'fault-malformed',
      times,
      when: { promptContains: 'Step initial.understand', turn: 1 },
      respond: { rawText: '{"stepId": "initial.understand", "summary": "chaos: cut off', delayMs: 300 },
    },
    {
      id: 'fault-529',
      times,
      when: { promptContains: 'Step continuation.implement', turn: 0 },
      respond: { error: err(529, 'overloaded_error', 'chaos: overloaded') },
    },
    {
      id: 'fault-reset',
      times,
      when: { promptContains: 'Step continuation.implement', turn: 1 },
      respond: { reset: true, delayMs: 200 },
    },
    {
      id: 'fault-500',
      times,
      when: { promptContains: 'Step closure.issue', turn: 0 },
      respond: { error: err(500, 'api_error', 'chaos: internal error') },
    },
    {
      id: 'fault-slow',
      times,
      when: { promptContains: 'Step closure.issue', turn: 1 },
      respond: { ...rule('closure-answer').respond, delayMs: 4000 },
    },
  ];
  // After a malformed answer the step asks once for a repaired one (turn 2).
  const repaired: SessionRule = {
    id: 'initial-answer-repaired',
    when: { promptContains: 'Step initial.understand', turn: 2 },
    respond: rule('understand-answer').respond,
  };
  const slowed = demo.rules.map((r) => ({ ...r, respond: { ...r.respond, delayMs: 400 + (r.respond.delayMs ?? 0) } }));
  return { ...demo, name: 'chaos: demo session with model faults', rules: [...faults, ...slowed, repaired] };
}

async function awaitResult(
  handle: WorkflowHandle<typeof runAgentWorkflow>,
  deadline: number,
): Promise<RunResult | Error> {
  for (;;) {
    try {
      return await handle.result();
    } catch (err) {
      // A failed run carries its RunResult (code and reason) in the failure's details.
      if (err instanceof WorkflowFailedError) return (await resultOfFailure(handle, err)) ?? err;
      // The server is down (restart in progress) or the long poll broke: ask again.
      if (Date.now() > deadline) return err instanceof Error ? err : new Error(String(err));
      await sleep(1000);
    }
  }
}

/** What a `merge` delivery left: merge commits for the issue, closing comments, issue state. */
export async function inspectRepo(
  repoPath: string,
  issue: number,
): Promise<{ mergeCommits: number; comments: number; issueState: string }> {
  const log = await git(repoPath, ['log', 'main', '--merges', '--format=%s']);
  const mergeCommits = log.stdout.split('\n').filter((l) => l.includes(`(issue #${issue})`)).length;
  const text = await readFile(join(repoPath, '.agent', 'issues', `${issue}.md`), 'utf8');
  const comments = (text.match(/^## Comment \(/gm) ?? []).length;
  const issueState = /^state:\s*(\w+)/m.exec(text)?.[1] ?? '?';
  return { mergeCommits, comments, issueState };
}

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const log = options.log ?? (() => undefined);
  const random = prng(options.seed);
  const between = (lo: number, hi: number): number => Math.round(lo + random() * (hi - lo));
  const started = performance.now();
  const deadline = Date.now() + options.timeoutMs;
  const dir = await mkdtemp(join(tmpdir(), 'issue-agent-chaos-'));
  const repos: string[] = [];
  const workers = new Set<WorkerProcess>();
  let stopping = false;
  let workerSpawns = 0;
  let workerKills = 0;
  const restarts: Array<{ signal: string; downMs: number }> = [];
  const problems: string[] = [];
  log(
    `chaos seed ${options.seed}: ${options.runs} runs, ${options.workerKills} worker kills, ${options.serverRestarts} server restarts, model faults × ${options.faultTimes}`,
  );

  const server = await startPrivateDevServer({ dir, dbName: 'chaos.sqlite' });
  const model = await createModelServer({ session: chaosSession(options.faultTimes) });
  let connection: Connection | undefined;
  const supervisors: Array<Promise<void>> = [];
  try {
    connection = await Connection.connect({ address: server.address });
    const client = new Client({ connection, namespace: server.namespace });
    const bundlePath = await bundleRunWorkflow(dir);
    const taskQueue = `chaos-${process.pid}-${Date.now().toString(36)}`;

    // Supervisors: keep `workers` worker processes alive, respawning any that dies.
    const supervise = async (slot: number): Promise<void> => {
      while (!stopping) {
        const worker = spawnWorker({ address: server.address, taskQueue, modelUrl: model.url, bundlePath });
        workerSpawns += 1;
        workers.add(worker);
        const exit = await worker.exited;
        workers.delete(worker);
        if (stopping) return;
        log(`  worker ${slot} (pid ${worker.pid}) exited (${exit.signal ?? `code ${exit.code}`}); respawning`);
        await sleep(between(300, 1500));
      }
    };
    for (let i = 0; i < options.workers; i += 1) supervisors.push(supervise(i + 1));

    const runs = await Promise.all(
      Array.from({ length: options.runs }, async (_, i) => {
        const { repoPath, issue } = await createSampleRepo();
        repos.push(repoPath);
        const workflowId = `chaos-${i + 1}-${Date.now().toString(36)}-issue-${issue}`;
        const handle = await client.workflow.start(runAgentWorkflow, {
          taskQueue,
          workflowId,
          workflowExecutionTimeout: `${Math.ceil(options.timeoutMs / 1000)} seconds`,
          args: [
            {
              issue,
              agentDir: PROJECT_ROOT,
              repoPath,
              issueSource: 'local',
              delivery: 'merge',
              artifactsDir: join(dir, 'artifacts'),
              tuning: { heartbeatTimeoutMs: 8000 },
            },
          ],
        });
        return { workflowId, repoPath, issue, handle };
      }),
    );
    log(`  started ${runs.length} runs on task queue ${taskQueue}`);
    let live = runs.length;
    const results = runs.map((r) =>
      awaitResult(r.handle, deadline).then((res) => {
        live -= 1;
        return res;
      }),
    );

    // Worker kills at random times while runs are live.
    const killer = (async () => {
      for (let k = 0; k < options.workerKills && live > 0 && Date.now() < deadline;) {
        await sleep(between(2500, 7000));
        const candidates = [...workers].filter((w) => w.alive());
        if (candidates.length === 0 || live === 0) continue;
        const victim = candidates[Math.floor(random() * candidates.length)]!;
        await victim.kill('SIGKILL');
        workerKills += 1;
        k += 1;
        log(`  SIGKILL worker pid ${victim.pid} (${workerKills}/${options.workerKills})`);
      }
    })();

    // Dev server stop/start cycles while runs are live.
    const restarter = (async () => {
      for (let r = 0; r < options.serverRestarts && live > 0 && Date.now() < deadline; r += 1) {
        await sleep(between(8000, 15000));
        if (live === 0) break;
        const hard = r % 2 === 1;
        const down = performance.now();
        await server.stop({ hard });
        log(`  dev server stopped (${hard ? 'SIGKILL' : 'SIGTERM'}); restarting on the same SQLite file`);
        await sleep(between(1500, 4000));
        await server.start();
        restarts.push({ signal: hard ? 'SIGKILL' : 'SIGTERM', downMs: Math.round(performance.now() - down) });
        log(`  dev server back after ${restarts.at(-1)!.downMs} ms`);
      }
    })();

    const settled = await Promise.all(results);
    await Promise.all([killer, restarter]);
    const reports: RunReport[] = [];
    for (const [i, run] of runs.entries()) {
      const res = settled[i]!;
      const repo = await inspectRepo(run.repoPath, run.issue);
      if (res instanceof Error) {
        problems.push(`${run.workflowId}: no result: ${res.message}`);
        reports.push({
          workflowId: run.workflowId,
          repoPath: run.repoPath,
          outcome: 'error',
          reason: res.message,
          ...repo,
          planKept: false,
          steps: [],
        });
        continue;
      }
      const planKept = /npm test/.test(String(res.handoff['initial.understand']?.['test_command'] ?? ''));
      const report: RunReport = {
        workflowId: run.workflowId,
        repoPath: run.repoPath,
        outcome: res.outcome,
        ...(res.code ? { code: res.code } : {}),
        reason: res.reason,
        ...repo,
        planKept,
        steps: res.steps.map((s) => s.stepId),
      };
      reports.push(report);
      if (res.reason.trim() === '') problems.push(`${run.workflowId}: ${res.outcome} without a stated reason`);
      if (repo.mergeCommits > 1)
        problems.push(
          `${run.workflowId}: ${repo.mergeCommits} merge commits for issue #${run.issue} (duplicate boundary effect)`,
        );
      if (repo.comments > 1)
        problems.push(
          `${run.workflowId}: ${repo.comments} closing comments on issue #${run.issue} (duplicate boundary effect)`,
        );
      if (res.steps.some((s) => s.stepId === 'initial.understand') && !planKept)
        problems.push(`${run.workflowId}: StepContext lost: handoff ${JSON.stringify(res.handoff)}`);
      if (res.outcome === 'success') {
        if (repo.mergeCommits !== 1)
          problems.push(`${run.workflowId}: succeeded with ${repo.mergeCommits} merge commits`);
        if (repo.comments !== 1) problems.push(`${run.workflowId}: succeeded with ${repo.comments} closing comments`);
        if (repo.issueState !== 'closed')
          problems.push(`${run.workflowId}: succeeded but issue state is ${repo.issueState}`);
      } else if (res.outcome !== 'failed') {
        problems.push(`${run.workflowId}: ended ${res.outcome}: ${res.reason}`);
      }
    }
    const stats: ServerStats = model.stats();
    const modelFaults = Object.fromEntries(Object.entries(stats.byRule).filter(([k]) => k.startsWith('fault-')));
    for (const fault of ['fault-429', 'fault-529', 'fault-500', 'fault-reset', 'fault-slow', 'fault-malformed']) {
      if ((modelFaults[fault] ?? 0) < 1) problems.push(`model fault ${fault} was never injected`);
    }
    if (restarts.length < Math.min(1, options.serverRestarts))
      problems.push('the dev server was never restarted mid-run (runs ended first)');
    const succeeded = reports.filter((r) => r.outcome === 'success').length;
    const failed = reports.filter((r) => r.outcome === 'failed').length;
    const faultText = Object.entries(modelFaults)
      .map(([k, v]) => `${k.replace('fault-', '')}×${v}`)
      .join(' ');
    const summary =
      `chaos: injected ${workerKills} worker SIGKILLs (${workerSpawns} worker spawns), ${restarts.length} dev-server restarts (${restarts.map((r) => `${r.signal} ${r.downMs} ms down`).join(', ') || 'none'}), ` +
      `model faults ${faultText || 'none'} over ${stats.requests} model requests; survived: ${succeeded}/${reports.length} runs completed, ${failed} failed with a reason; ` +
      `duplicate boundary effects: ${reports.filter((r) => r.mergeCommits > 1 || r.comments > 1).length}; lost StepContext: ${reports.filter((r) => r.steps.length > 0 && !r.planKept).length}; problems: ${problems.length}`;
    return {
      seed: options.seed,
      runs: reports,
      workerKills,
      workerSpawns,
      serverRestarts: restarts,
      modelFaults,
      modelRequests: stats.requests,
      durationMs: Math.round(performance.now() - started),
      problems,
      summary,
    };
  } finally {
    stopping = true;
    await Promise.all([...workers].map((w) => w.kill('SIGKILL')));
    await Promise.race([Promise.all(supervisors), sleep(5000)]);
    await Promise.all([...workers].map((w) => w.kill('SIGKILL')));
    await connection?.close().catch(() => undefined);
    await model.close();
    await server.stop();
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    await Promise.all(repos.map((r) => rm(r, { recursive: true, force: true }).catch(() => undefined)));
  }
}
