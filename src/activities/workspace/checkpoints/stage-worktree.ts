/**
 * `git add --all` for a checkpoint, past nested repositories with no commit. A directory
 * holding a `git init` with nothing committed (a test fixture, a scratch clone, or a model
 * that made one) makes git refuse the whole `add` ("'sub/' does not have a commit checked
 * out"), and every later checkpoint of the step would fail with it: a crash would then lose
 * the step's work. Such a directory is left out instead (git names one per refusal, so the
 * add is run again until none is left); what it holds is not part of the outer repository
 * anyway. A nested repository with a commit is staged as git always does (its commit).
 */
import type { IndexedGit } from './temporary-index.js';

const UNBORN_NESTED = /'([^']+?)\/?' does not have a commit checked out/;
/** Left out at the most: past this, the add's own error stands. */
const MAX_LEFT_OUT = 50;

/** Stages the whole worktree; the nested repositories left out are returned. */
export async function stageWorktree(run: IndexedGit): Promise<readonly string[]> {
  const leftOut: string[] = [];
  for (;;) {
    const excludes = leftOut.map((path) => `:(exclude,literal)${path}`);
    try {
      await run(['add', '--all', ...(excludes.length === 0 ? [] : ['--', '.', ...excludes])]);
      return leftOut;
    } catch (error) {
      const path = UNBORN_NESTED.exec(error instanceof Error ? error.message : String(error))?.[1];
      if (path === undefined || leftOut.includes(path) || leftOut.length >= MAX_LEFT_OUT) throw error;
      leftOut.push(path);
    }
  }
}
