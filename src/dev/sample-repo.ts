/**
 * The demo's sample repository: a tiny package with a failing test and a local issue
 * describing the bug, created in a fresh temp directory (also used by tests).
 */
import { cp, mkdtemp, readFile, appendFile, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitOrThrow } from '../activities/workspace/git/git.js';
import { PROJECT_ROOT } from '../host/project-root.js';
import { localIssuePath, LOCAL_ISSUES_DIR } from '../activities/issues/local-issue-store.js';

export const DEMO_DIR = join(PROJECT_ROOT, 'demo');

const GIT_IDENTITY = [
  '-c',
  'user.name=Demo User',
  '-c',
  'user.email=demo@example.invalid',
  '-c',
  'commit.gpgsign=false',
];

export async function createSampleRepo(
  options: { issue?: number; issueFile?: string } = {},
): Promise<{ repoPath: string; issue: number }> {
  const repoPath = await mkdtemp(join(tmpdir(), 'issue-agent-demo-'));
  await cp(join(DEMO_DIR, 'sample-repo'), repoPath, { recursive: true });
  await gitOrThrow(repoPath, ['init', '-q', '-b', 'main'], 'REPO_NOT_FOUND');
  await gitOrThrow(repoPath, ['add', '-A'], 'REPO_NOT_FOUND');
  await gitOrThrow(repoPath, [...GIT_IDENTITY, 'commit', '-q', '-m', 'Initial commit'], 'REPO_NOT_FOUND');
  // Local issues live beside the code but are not part of it.
  await appendFile(join(repoPath, '.git', 'info', 'exclude'), '\n.agent/\n');
  const issue = options.issue ?? 1;
  await mkdir(join(repoPath, LOCAL_ISSUES_DIR), { recursive: true });
  await writeFile(
    localIssuePath(repoPath, issue),
    await readFile(options.issueFile ?? join(DEMO_DIR, 'issue-1.md'), 'utf8'),
  );
  return { repoPath, issue };
}
