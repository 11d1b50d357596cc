/**
 * Phases `concurrency`, `one-repo` and `r200`: R runs at once on one worker
 * (concurrent-runs.ts), with a repository each, all in one repository, and 200 of them.
 * Each variant's figures carry its prefix (`oneRepo…`, `r200…`); workerPeakRssMb is the
 * peak over every variant run. A phase fails unless every run succeeded.
 */
import type { Config } from '../config.js';
import { concurrentRuns, type ConcurrencyVariant } from '../concurrent-runs.js';
import type { Figures } from '../figures.js';
import type { BenchPhase } from '../phase.js';
import { figure, plus, type TableRow } from '../report.js';
import { check } from '../runs.js';

interface VariantPhase {
  readonly name: string;
  readonly variant: (cfg: Config) => ConcurrencyVariant;
  /** Prefixes the variant's figures ('' for the plain one). */
  readonly prefix: string;
  readonly budgetMs: number;
  readonly rows: readonly TableRow[];
}

function concurrencyPhase({ name, variant, prefix, budgetMs, rows }: VariantPhase): BenchPhase {
  const named = (k: string): string => (prefix === '' ? k : `${prefix}${k[0]!.toUpperCase()}${k.slice(1)}`);
  return {
    name,
    budgetMs,
    rows,
    title(cfg) {
      const { runs, oneRepo } = variant(cfg);
      const where = oneRepo ? 'one repository' : 'a repository each';
      return `concurrency (${runs} runs × ${cfg.concurrentSteps} steps at ${cfg.concurrentLatencyMs} ms, one worker, ${where})`;
    },
    async run(ctx) {
      const r = await concurrentRuns(ctx, variant(ctx.cfg));
      const figures: Figures = {};
      for (const [k, v] of Object.entries(r)) figures[named(k)] = v;
      const peak = Number(ctx.results.workerPeakRssMb ?? 0);
      if (prefix !== '') figures.workerPeakRssMb = Math.max(peak, r.workerPeakRssMb ?? 0);
      return figures;
    },
    check(figures, cfg) {
      const { runs } = variant(cfg);
      const succeeded = figures[named('concurrentSucceeded')];
      check('concurrent runs', succeeded === runs, `${succeeded} of ${runs} succeeded`);
    },
  };
}

export const concurrency = concurrencyPhase({
  name: 'concurrency',
  variant: (cfg) => ({ runs: cfg.concurrentRuns, oneRepo: false }),
  prefix: '',
  budgetMs: 240_000,
  rows: [
    { key: 'concurrentRuns', unit: '' },
    // Issue 38 (settling issue 29): the wall ratio against what all the runs' CPU (worker,
    // its sandboxed children, dev server) spread over every core allows on this machine.
    { key: 'concurrentVsCpuBound', unit: '×', max: 1.2 },
    // A regression guard: the best measured was the server bound + 3.0 (issue 29).
    {
      key: 'concurrentWallRatio',
      unit: '×',
      maxFrom: (r) => plus(figure(r, 'concurrentServerBoundRatio'), 4),
    },
    { key: 'stepsPerSecond', unit: '/s' },
    { key: 'concurrentServerBoundRatio', unit: '×' },
    // Every process's CPU for the runs over every core: the wall ratio no scheduling beats.
    { key: 'concurrentCpuBoundRatio', unit: '×' },
    { key: 'cpuMsPerRunWorker', unit: 'ms' },
    { key: 'cpuMsPerRunWorkerChildren', unit: 'ms' },
    { key: 'cpuMsPerRunServer', unit: 'ms' },
  ],
});

export const oneRepo = concurrencyPhase({
  name: 'one-repo',
  variant: (cfg) => ({ runs: cfg.concurrentRuns, oneRepo: true }),
  prefix: 'oneRepo',
  budgetMs: 240_000,
  rows: [{ key: 'oneRepoConcurrentWallRatio', unit: '×' }],
});

export const r200 = concurrencyPhase({
  name: 'r200',
  variant: () => ({ runs: 200, oneRepo: false }),
  prefix: 'r200',
  budgetMs: 600_000,
  rows: [
    { key: 'r200ConcurrentWallRatio', unit: '×' },
    { key: 'r200ConcurrentSucceeded', unit: '' },
    // The peak over every concurrency variant run (each raises it), so after the last of them.
    { key: 'workerPeakRssMb', unit: 'MB', max: 600 },
  ],
});
