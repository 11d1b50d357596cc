/**
 * What the workspace tests prepare a worktree with, and the repository of a rerun after
 * its base moved (branch-base-drift.test.ts): a first run prepared `agent/issue-5`'s
 * worktree and failed before any step, then the user committed a fix on main. Kept in
 * one place so each test says only what it changes and what it checks.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PrepareWorkspaceInput, PrepareWorkspaceOutput } from '../../../src/contracts/activities.js';
import { localIssueSourceFactory, writeLocalIssue } from '../../../src/activities/issues/local-issue-store.js';
import { baseDriftNote } from '../../../src/activities/workspace/branch-base-drift.js';
import { prepareWorkspace } from '../../../src/activities/workspace/prepare-workspace.js';
import { privateRepoLayout } from '../../../src/activities/workspace/private-repo/private-repo-layout.js';
import { makeTempGitRepo, type TempGitRepo } from '../../helpers/temp-git-repo.js';

/** prepareWorkspace's deps as the worker passes them, with local issues. */
export const workspaceDeps = { issueSource: localIssueSourceFactory };

/** prepareWorkspace's input for `issue` of the repository at `repoPath` (worktrees in `.worktrees`, branches `agent/`). */
export const workspaceInput = (repoPath: string, issue = 5): PrepareWorkspaceInput => ({
  repoPath,
  issue,
  issueSource: 'local',
  worktreeRoot: '.worktrees',
  branchPrefix: 'agent',
});

/** A repository whose issue 5 branch was cut from a base that has moved since. */
export interface DriftedRepo {
  readonly repo: TempGitRepo;
  /** The first run's worktree of `agent/issue-5`. */
  readonly worktreePath: string;
  /** main when the first run cut the branch. */
  readonly oldBase: string;
  /** main now: the user's fix. */
  readonly fix: string;
  /** start-run's base-drift note for issue 5 as things stand. */
  note(): Promise<string | undefined>;
  /** The rerun's prepareWorkspace, as the worker calls it. */
  rerun(): Promise<PrepareWorkspaceOutput>;
  /** `agent/issue-5`'s tip in the worktree's private repository (the agent's own). */
  privateTip(): Promise<string>;
}

/** Runs `body` on a fresh drifted repository, removed afterwards whatever happens. */
export async function withDriftedRepo(body: (drifted: DriftedRepo) => Promise<void>): Promise<void> {
  const repo = await makeTempGitRepo({});
  try {
    await writeLocalIssue(repo.dir, { number: 5, title: 'T', body: 'B' });
    const first = await prepareWorkspace(workspaceDeps, workspaceInput(repo.dir));
    const oldBase = await repo.git('rev-parse', 'main');
    await repo.write({ 'setup.txt': 'fixed\n' });
    await repo.git('add', 'setup.txt');
    await repo.git('commit', '-qm', 'fix the setup');
    const { worktreePath } = first;
    await body({
      repo,
      worktreePath,
      oldBase,
      fix: await repo.git('rev-parse', 'main'),
      note: () => baseDriftNote(repo.dir, 'agent', 5),
      rerun: () => prepareWorkspace(workspaceDeps, workspaceInput(repo.dir)),
      privateTip: async () => {
        const common = privateRepoLayout(worktreePath).commonDir;
        return (await readFile(join(common, 'refs', 'heads', 'agent', 'issue-5'), 'utf8')).trim();
      },
    });
  } finally {
    await repo.cleanup();
  }
}
