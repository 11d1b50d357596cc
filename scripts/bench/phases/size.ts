/**
 * Phase `size`: the same scripted run (steps that each edit one file through the editor
 * tool, editing-session.ts) on generated repositories of ~1 000 and ~100 000 files
 * (generated-repo.ts, cached across bench runs), with git's own floor measured in the
 * same run on the same repository: `git status` + `git add -A` + `git write-tree` after
 * a one-file change, and `git worktree add`. The harness's per-step cost on the big
 * repository is read against the first, its worktree preparation against the second.
 */
import { join } from 'node:path';
import { createModelServer } from '../../../src/dev/model-server/model-server.js';
import type { BenchContext } from '../context.js';
import { durableRun, historyFacts, intervals, median, timeBreakdown } from '../durable.js';
import { editingSession } from '../editing-session.js';
import { roundTo, type Figures } from '../figures.js';
import { generatedRepo, gitFloor } from '../generated-repo.js';
import { note } from '../log.js';
import type { BenchPhase } from '../phase.js';
import { check, intentsInput, uniq } from '../runs.js';
import { withWorker } from '../workers.js';

const STEPS = 12;
export const SMALL_REPO_FILES = 1_000;
export const BIG_REPO_FILES = 100_000;

interface SizedRun {
  /** Median ms between the completions of the editing steps. */
  readonly stepMs: number;
  /** The prepareWorkspace activity's execution (ms). */
  readonly prepareMs: number;
}

async function sizedRun(ctx: BenchContext, taskQueue: string, files: number): Promise<SizedRun> {
  const repo = await generatedRepo(files);
  if (repo.made) note(`  generated a ${files}-file repository (cached for later runs): ${repo.repoPath}`);
  const run = await durableRun(
    ctx.client,
    taskQueue,
    uniq(`size-${files}`),
    intentsInput(repo.repoPath, repo.issue, join(ctx.dir, 'artifacts'), STEPS),
    300_000,
  );
  check(
    `run on ${files} files`,
    run.result.outcome === 'success' && run.result.steps.length === STEPS,
    `${run.result.outcome} after ${run.result.steps.length} steps: ${run.result.reason}`,
  );
  const facts = await historyFacts(run.handle);
  // Steps 2 … N-2 edit one file each (the first has no earlier step; N-1 commits, N closes).
  const editing = intervals(facts.stepEnds).slice(0, STEPS - 3);
  const breakdown = await timeBreakdown(run.handle);
  const prepare = breakdown.byActivity['prepareWorkspace'];
  return { stepMs: median(editing), prepareMs: prepare?.execMs ?? Number.NaN };
}

export const size: BenchPhase = {
  name: 'size',
  // The big repository's worktree (100 000 files checked out) is made twice: once by the run, once by git alone.
  budgetMs: 900_000,
  rows: [
    { key: 'bigRepoFiles', unit: '' },
    { key: 'stepHarnessMsSmallRepo', unit: 'ms' },
    { key: 'stepHarnessMsBigRepo', unit: 'ms' },
    { key: 'gitFloorMsBigRepo', unit: 'ms' },
    { key: 'bigRepoStepVsGitFloor', unit: '×', max: 2 },
    { key: 'prepareMsBigRepo', unit: 'ms' },
    { key: 'worktreeAddMsBigRepo', unit: 'ms' },
    { key: 'prepareVsWorktreeAdd', unit: '×', max: 1.3 },
  ],
  title: () =>
    `size (${STEPS} editing steps on ${SMALL_REPO_FILES} and ${BIG_REPO_FILES} files, git's floor alongside)`,
  async run(ctx): Promise<Figures> {
    const model = await createModelServer({ session: editingSession(STEPS, 0) });
    try {
      return await withWorker(ctx, model, async (taskQueue) => {
        // The small run first also warms the worker (bundle, JIT) for the big one.
        const small = await sizedRun(ctx, taskQueue, SMALL_REPO_FILES);
        const smallAgain = await sizedRun(ctx, taskQueue, SMALL_REPO_FILES);
        const big = await sizedRun(ctx, taskQueue, BIG_REPO_FILES);
        const repo = await generatedRepo(BIG_REPO_FILES);
        const floor = await gitFloor(repo.repoPath, 3, 2);
        note(
          `  small repo ${Math.round(small.stepMs)}/${Math.round(smallAgain.stepMs)} ms/step; big repo ${Math.round(big.stepMs)} ms/step, ` +
            `git floor ${Math.round(floor.stepMs)} ms (status ${Math.round(floor.statusMs)} ms); prepare ${Math.round(big.prepareMs)} ms, worktree add ${Math.round(floor.worktreeAddMs)} ms`,
        );
        return {
          bigRepoFiles: BIG_REPO_FILES,
          smallRepoFiles: SMALL_REPO_FILES,
          stepHarnessMsSmallRepo: Math.round(smallAgain.stepMs),
          stepHarnessMsBigRepo: Math.round(big.stepMs),
          gitFloorMsBigRepo: Math.round(floor.stepMs),
          gitStatusMsBigRepo: Math.round(floor.statusMs),
          bigRepoStepVsGitFloor: roundTo(big.stepMs / floor.stepMs, 2),
          prepareMsBigRepo: Math.round(big.prepareMs),
          prepareMsSmallRepo: Math.round(smallAgain.prepareMs),
          worktreeAddMsBigRepo: Math.round(floor.worktreeAddMs),
          prepareVsWorktreeAdd: roundTo(big.prepareMs / floor.worktreeAddMs, 2),
        };
      });
    } finally {
      await model.close();
    }
  },
};
