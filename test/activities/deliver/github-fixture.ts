/**
 * A GitHub delivery scenario with real git: a clone whose `origin` is a bare repository
 * in a temp dir, an issue branch in a worktree with one commit, and the fake GitHub API
 * serving issue #7 of acme/widgets.
 */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import type { BoundaryHookInput, ConditionResult } from '../../../src/contracts/activities.js';
import { startFakeGitHubServer, type FakeGitHubServer } from '../../helpers/fake-github-server.js';
import { makeTempGitRepo, type TempGitRepo } from '../../helpers/temp-git-repo.js';

export const FAKE_TOKEN = 'ghp_FAKE_token_for_tests_only';

export const evidence: ConditionResult[] = [
  {
    validator: 'git-clean',
    passed: true,
    command: 'git status --porcelain',
    exitCode: 0,
    summary: '`git status --porcelain` passed (no output)',
    params: {},
    unrecoverable: false,
  },
  {
    validator: 'tests-pass',
    passed: true,
    command: 'npm test',
    exitCode: 0,
    summary: 'npm test passed | 12 tests',
    params: {},
    unrecoverable: false,
  },
];

export interface GitHubScenario {
  readonly repo: TempGitRepo;
  readonly remoteDir: string;
  readonly server: FakeGitHubServer;
  readonly env: Record<string, string>;
  readonly input: BoundaryHookInput;
  remoteHead(branch: string): Promise<string>;
  cleanup(): Promise<void>;
}

export async function githubScenario(
  options: { closureAction?: BoundaryHookInput['closureAction'] } = {},
): Promise<GitHubScenario> {
  const server = await startFakeGitHubServer({ owner: 'acme', repo: 'widgets', token: FAKE_TOKEN });
  server.addIssue({
    number: 7,
    title: 'Add a greeting',
    body: 'Please add hello.txt',
    labels: ['agent', 'in-progress'],
  });
  const repo = await makeTempGitRepo({});
  const remoteDir = await realpath(await mkdtemp(join(tmpdir(), 'agent-remote-')));
  await execa('git', ['init', '--quiet', '--bare', '--initial-branch=main', remoteDir]);
  await repo.git('remote', 'add', 'origin', remoteDir);
  await repo.git('push', '--quiet', 'origin', 'main');
  const worktreePath = join(repo.dir, '.worktrees', 'issue-7');
  await repo.git('worktree', 'add', '--quiet', '-b', 'agent/issue-7', worktreePath, 'main');
  await repo.write({ '.worktrees/issue-7/hello.txt': 'hello\n' });
  await repo.git('-C', worktreePath, 'add', 'hello.txt');
  await repo.git('-C', worktreePath, 'commit', '--quiet', '-m', 'add hello');
  const env = {
    GITHUB_TOKEN: FAKE_TOKEN,
    GITHUB_API_URL: server.url,
    GITHUB_REPOSITORY: 'acme/widgets',
    PATH: process.env['PATH'] ?? '',
  };
  return {
    repo,
    remoteDir,
    server,
    env,
    input: {
      workflowId: 'agent-issue-7',
      mode: 'github',
      repoPath: repo.dir,
      worktreePath,
      branch: 'agent/issue-7',
      baseBranch: 'main',
      issue: 7,
      closureAction: options.closureAction ?? 'label-and-close',
      labels: { add: ['done'], remove: ['in-progress', 'never-there'] },
      summary: 'Added hello.txt. Also fixes #12 by the way.',
      evidence,
    },
    async remoteHead(branch) {
      const r = await execa(
        'git',
        ['--git-dir', remoteDir, 'rev-parse', '--verify', '--quiet', `refs/heads/${branch}`],
        { reject: false },
      );
      return String(r.stdout).trim();
    },
    async cleanup() {
      await server.close();
      await repo.cleanup();
      await rm(remoteDir, { recursive: true, force: true });
    },
  };
}
