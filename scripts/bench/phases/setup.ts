/**
 * Phase `setup`: the environment phase of two runs on the same repository and lockfile
 * (an npm project: is-number and mocha, lockfile committed), on a worker with a state dir
 * of its own, so the first run starts with cold caches (its `npm ci` downloads) and the
 * second finds what the first left: setupWarmVsCold is the second run's
 * prepareEnvironment activity against the first's (a warm setup is a copy of the first
 * install's node_modules, node-modules-snapshot.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { localIssuePath } from '../../../src/activities/issues/local-issue-store.js';
import { createModelServer } from '../../../src/dev/model-server/model-server.js';
import type { BenchContext } from '../context.js';
import { durableRun, timeBreakdown } from '../durable.js';
import { roundTo, type Figures } from '../figures.js';
import { note } from '../log.js';
import type { BenchPhase } from '../phase.js';
import { newRepo } from '../repos.js';
import { check, intentsInput, uniq } from '../runs.js';
import { stepsSession } from '../sessions.js';
import { withWorker } from '../workers.js';

const STEPS = 3;

/** A sample repository turned into an npm project with dependencies and a committed lockfile. */
async function npmRepo(): Promise<{ repoPath: string; issues: [number, number] }> {
  const { repoPath, issue } = await newRepo();
  const pkgPath = join(repoPath, 'package.json');
  const pkg = JSON.parse(await readFile(pkgPath, 'utf8')) as Record<string, unknown>;
  pkg.dependencies = { 'is-number': '7.0.0' };
  pkg.devDependencies = { mocha: '10.8.2' };
  await writeFile(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
  await writeFile(join(repoPath, '.gitignore'), 'node_modules/\n');
  const sh = (file: string, args: readonly string[]): void => {
    execFileSync(file, args, { cwd: repoPath, stdio: 'ignore' });
  };
  sh('npm', ['install', '--package-lock-only', '--no-audit', '--no-fund']);
  sh('git', ['add', '-A']);
  sh('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.invalid', 'commit', '-q', '-m', 'lockfile']);
  const second = issue + 1;
  await writeFile(localIssuePath(repoPath, second), await readFile(localIssuePath(repoPath, issue), 'utf8'));
  return { repoPath, issues: [issue, second] };
}

async function environmentMs(ctx: BenchContext, taskQueue: string, repoPath: string, issue: number): Promise<number> {
  const run = await durableRun(
    ctx.client,
    taskQueue,
    uniq('setup'),
    intentsInput(repoPath, issue, join(ctx.dir, 'artifacts'), STEPS),
    300_000,
  );
  check('setup run', run.result.outcome === 'success', `${run.result.outcome}: ${run.result.reason}`);
  const exec = (await timeBreakdown(run.handle)).byActivity['prepareEnvironment']?.execMs;
  check('environment phase', exec !== undefined, 'no prepareEnvironment activity in the run');
  return exec ?? Number.NaN;
}

export const setup: BenchPhase = {
  name: 'setup',
  budgetMs: 420_000,
  rows: [
    { key: 'setupColdMs', unit: 'ms' },
    { key: 'setupWarmMs', unit: 'ms' },
    { key: 'setupWarmVsCold', unit: '×', max: 0.2 },
  ],
  title: () => 'setup (environment phase of two runs on one npm repository and lockfile, cold caches first)',
  async run(ctx): Promise<Figures> {
    const model = await createModelServer({ session: stepsSession({ steps: STEPS, latencyMs: 0 }) });
    const stateDir = await mkdtemp(join(ctx.dir, 'state-setup-'));
    try {
      const { repoPath, issues } = await npmRepo();
      return await withWorker(
        ctx,
        model,
        async (taskQueue) => {
          const cold = await environmentMs(ctx, taskQueue, repoPath, issues[0]);
          const warm = await environmentMs(ctx, taskQueue, repoPath, issues[1]);
          note(`  environment phase: first run ${Math.round(cold)} ms, second run ${Math.round(warm)} ms`);
          return {
            setupColdMs: Math.round(cold),
            setupWarmMs: Math.round(warm),
            setupWarmVsCold: roundTo(warm / cold, 3),
          };
        },
        { stateDir },
      );
    } finally {
      await model.close();
    }
  },
};
