/**
 * Where a run puts an issue's worktree when agent.json sets no root: in the worker's
 * state dir (worktree-layout.ts), which the tests' workers share with the test process
 * unless it gives them another (`stateDir`).
 */
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultWorktreeRoot } from '../../src/activities/workspace/worktree-layout.js';

export async function defaultWorktreeOf(repoPath: string, issue: number, stateDir?: string): Promise<string> {
  return join(defaultWorktreeRoot(join(await realpath(repoPath), '.git'), stateDir), `issue-${issue}`);
}
