/**
 * A temp git repository that the sandbox treats as an agent's worktree once a command
 * runs there (it gets a private HOME and sandbox state): both are removed afterwards.
 */
import { removeAgentSandbox } from '../../src/activities/workspace/sandbox-state.js';
import { makeTempGitRepo, type TempGitRepo } from './temp-git-repo.js';

export async function withSandboxedRepo(
  files: Record<string, string>,
  body: (repo: TempGitRepo) => Promise<void>,
): Promise<void> {
  const repo = await makeTempGitRepo({ files });
  try {
    await body(repo);
  } finally {
    await removeAgentSandbox(repo.dir);
    await repo.cleanup();
  }
}
