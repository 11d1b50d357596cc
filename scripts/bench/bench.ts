/**
 * `npm run bench [-- --json] [-- --quick]`: what durability costs, as ratios against a
 * plain in-process loop, on a private Temporal dev server (SQLite, free ports, never
 * 7233) with the offline model server answering after a fixed latency. Not a test:
 * it prints a table (or, with --json, one JSON object on stdout; progress on stderr).
 *
 * Phases (each bounded in time; their modules are under phases/, listed in registry.ts):
 *   floor       the Temporal-only floor: a workflow awaiting one no-op activity per step
 *   overhead    N-step runs of the intents fixture agent, durable vs in-process, interleaved
 *   ratio       the same at 500 ms model latency
 *   history     history bytes per step while every step's bash prints 1 MB
 *   concurrency R runs at once on one worker: wall vs one run, steps/s, worker peak RSS
 *   one-repo    the same with all R runs in one repository (one issue each)
 *   r200        200 runs at once (every run must succeed; worker peak RSS)
 *   resume      SIGKILL a worker mid-step; time from a new worker's spawn to the step's progress
 *               (the replacement is the compiled worker, dist/worker.js, rebuilt when stale)
 *   size        the same editing run on generated 1 000- and 100 000-file repositories, git's floor alongside
 *   setup       the environment phase of a second run of one npm lockfile against the first
 *   long        one 300-step run: late vs early step time, resume at step 290 vs step 11
 *   tokens      one 40-turn step in billed dollars, with and without context management
 *               (the tool loop against the offline server's prompt cache; no Temporal:
 *               `--only tokens` starts no dev server and takes ~15 s)
 *
 * Bounds measured in the same run, so a missed target can be read against what the
 * platform allows on this machine: floorHostQueueMsPerStep (one activity per step on
 * another task queue, as our steps are), ratioFloorBound (that floor alone at 500 ms),
 * concurrentServerBoundRatio (the dev server's CPU for the R runs over all cores, against
 * one run's wall) and resumeFloorMs (spawn → polling of a bare SDK worker); the targets
 * of those phases are relative to them (TableRow.maxFrom).
 *
 * This driver starts the server, runs the selected phases in order and prints the report.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { bundleRunWorkflow } from './run-workflow-bundle.js';
import { DISPATCH_DYNAMIC_CONFIG } from '../../src/host/temporal/ensure-temporal.js';
import { helpText, parseArgs } from './args.js';
import { startPrivateDevServer } from './bench-server.js';
import { benchConfig } from './config.js';
import type { BenchContext } from './context.js';
import type { Figures } from './figures.js';
import { note, setJsonOutput } from './log.js';
import { runPhase, selected, type BenchPhase } from './phase.js';
import { PHASES } from './registry.js';
import { removeWithRepos } from './repos.js';
import { report } from './report.js';
import { killLiveWorkers } from './workers.js';

/** Phases that need no Temporal (BenchPhase.offline), run without starting the dev server. */
async function runOffline(
  phases: readonly BenchPhase[],
  base: Pick<BenchContext, 'dir' | 'cfg' | 'results' | 'profileDir'>,
  errors: string[],
): Promise<void> {
  note('bench: offline phases only, no dev server');
  const missing = (what: string) => (): never => {
    throw new Error(`an offline bench phase has no ${what}`);
  };
  const ctx = Object.defineProperties(
    { ...base },
    {
      server: { get: missing('dev server') },
      client: { get: missing('Temporal client') },
      bundlePath: { get: missing('workflow bundle') },
    },
  ) as BenchContext;
  for (const phase of phases) await runPhase(phase, ctx, base.results as Figures, errors);
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  if (options.help) {
    process.stdout.write(helpText(PHASES.map((p) => p.name)));
    return 0;
  }
  setJsonOutput(options.json);
  const cfg = benchConfig(options.quick);
  const t0 = performance.now();
  const results: Figures = {};
  const errors: string[] = [];
  const printReport = (errs: readonly string[]): void =>
    report(results, errs, { json: options.json, quick: cfg.quick, t0, rows: PHASES.flatMap((p) => p.rows) });
  const dir = await mkdtemp(join(tmpdir(), 'issue-agent-bench-'));
  const phases = PHASES.filter((phase) => selected(phase, options.only));
  if (phases.every((phase) => phase.offline === true)) {
    await runOffline(phases, { dir, cfg, results, profileDir: options.profileDir }, errors);
    await removeWithRepos([dir]);
    printReport(errors);
    return errors.length > 0 ? 1 : 0;
  }
  note(`bench: private dev server (SQLite ${join(dir, 'bench.sqlite')})${cfg.quick ? ', quick mode' : ''}`);
  const server = await startPrivateDevServer({
    dir,
    dbName: 'bench.sqlite',
    dispatchConfig: !options.serverDefaults,
    ...(options.wal ? { sqlitePragmas: ['journal_mode=WAL', 'synchronous=NORMAL'] } : {}),
  });
  const cleanups: Array<() => Promise<unknown>> = [() => server.stop()];
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      note(`bench: ${signal}, cleaning up`);
      printReport([...errors, `interrupted by ${signal}`]);
      void killLiveWorkers()
        .then(() => server.stop())
        .then(() => removeWithRepos([dir]))
        .finally(() => process.exit(130));
    });
  }
  results.sqlite = options.wal ? 'WAL, synchronous=NORMAL' : 'default pragmas';
  results.serverDispatchConfig = options.serverDefaults ? 'server defaults' : DISPATCH_DYNAMIC_CONFIG.join(' ');
  try {
    const connection = await Connection.connect({ address: server.address });
    cleanups.unshift(() => connection.close());
    const client = new Client({ connection, namespace: server.namespace });
    const bundlePath = await bundleRunWorkflow(dir);
    const ctx: BenchContext = { dir, server, client, bundlePath, cfg, profileDir: options.profileDir, results };
    for (const phase of phases) await runPhase(phase, ctx, results, errors);
  } finally {
    // An abandoned phase (timed out) may still have result polls in flight: once the
    // connection closes, their retries throw from a timer. Those are expected then.
    process.on('uncaughtException', (err) => {
      if (/Channel has been shut down/.test(err.message)) return;
      process.stderr.write(`bench failed: ${err.stack ?? err.message}\n`);
      process.exit(1);
    });
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
    await removeWithRepos([dir]);
  }
  printReport(errors);
  return errors.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
