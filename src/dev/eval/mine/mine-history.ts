/**
 * `eval --mine`: tasks from a repository's own history. The first-parent line from HEAD
 * is walked newest first; each commit that changes test files and source files is
 * verified (verify-commit.ts) in a private clone, never the user's checkout, until
 * `limit` tasks qualify or `scan` candidates were tried. Each task is SWE-bench shaped:
 * the parent is the base, the commit message the issue, the test-file change the hidden
 * test patch and the rest the gold patch.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { FailureType } from '../../../contracts/failures.js';
import { AgentError } from '../../../contracts/errors.js';
import { git, gitOrThrow } from '../../../activities/workspace/git/git.js';
import { removeAgentSandbox } from '../../../activities/workspace/sandbox-state.js';
import { detectCommands } from '../../../definition/repo-config/detect-commands.js';
import { readRepoConfig } from '../../../definition/repo-config/read-repo-config.js';
import { setupCommandsOf } from '../../../contracts/repo-config.js';
import type { SweTask } from '../swe-jsonl.js';
import { commitIssue, problemStatement } from './commit-issue.js';
import { commitParts, firstParentCommits, isCandidate, patchOf } from './commit-parts.js';
import { verifyCommit } from './verify-commit.js';

export interface MineOptions {
  readonly repo: string;
  readonly limit: number;
  /** Candidate commits verified at most (default 8 × limit). */
  readonly scan?: number;
  /** The test command for every commit (default: .agent/config.json's, else detected at each parent). */
  readonly testCommand?: string;
  readonly log: (line: string) => void;
  /** Called with each task as soon as it qualifies. */
  readonly onTask?: (task: SweTask) => void;
}

const git1 = (cwd: string, args: readonly string[]): Promise<string> => gitOrThrow(cwd, args, FailureType.RepoNotFound);

/** `owner/name` from a GitHub-style origin URL, else the directory's name. */
async function repoName(repo: string): Promise<string> {
  const url = await git(repo, ['config', '--get', 'remote.origin.url']);
  const m = /[/:]([^/:]+)\/([^/]+?)(?:\.git)?\/?$/.exec(url.stdout.trim());
  return m?.[1] && m[2] && url.exitCode === 0 ? `${m[1]}/${m[2]}` : basename(resolve(repo));
}

async function testCommandAt(clone: string, commit: string, configured?: string): Promise<string | undefined> {
  if (configured !== undefined) return configured;
  await git1(clone, ['checkout', '-q', '--detach', '-f', commit]);
  return (await detectCommands(clone)).commands.test;
}

export async function mineHistory(options: MineOptions): Promise<SweTask[]> {
  const repoPath = resolve(options.repo);
  const top = await git(repoPath, ['rev-parse', '--show-toplevel']);
  if (top.exitCode !== 0)
    throw new AgentError(FailureType.RepoNotFound, `--mine: ${repoPath} is not a git repository`, {
      where: '--mine',
      expected: 'a clone with history (git clone, not a snapshot)',
    });
  const config = await readRepoConfig(repoPath);
  const setup = setupCommandsOf(config?.commands);
  const configured = options.testCommand ?? config?.commands?.test;
  const name = await repoName(repoPath);
  const slug = name.replace('/', '__').replace(/[^A-Za-z0-9_.-]/g, '-');
  options.log(
    `mining ${name} (${repoPath}): up to ${options.limit} task(s), tests: ${configured ?? 'detected at each commit'}`,
  );
  const clone = await mkdtemp(join(tmpdir(), 'issue-agent-mine-'));
  const tasks: SweTask[] = [];
  try {
    await git1(tmpdir(), ['clone', '-q', '--no-hardlinks', repoPath, clone]);
    const scan = options.scan ?? options.limit * 8;
    let tried = 0;
    for (const commit of await firstParentCommits(clone)) {
      if (tasks.length >= options.limit || tried >= scan) break;
      const parts = await commitParts(clone, commit);
      if (parts === undefined || !isCandidate(parts)) continue;
      tried++;
      const short = commit.slice(0, 10);
      const subject = (await git1(clone, ['log', '-1', '--format=%s', commit])).slice(0, 70);
      const testCommand = await testCommandAt(clone, parts.parent, configured);
      if (testCommand === undefined) {
        options.log(`  ${short} ${subject}: skipped, no test command detected (pass --test-command)`);
        continue;
      }
      const patches = {
        test: await patchOf(clone, parts, parts.testFiles),
        gold: await patchOf(clone, parts, parts.otherFiles),
      };
      let verdict;
      try {
        verdict = await verifyCommit(
          { repoPath, worktree: clone, testCommand, ...(setup === undefined ? {} : { setup }) },
          parts,
          patches,
        );
      } catch (err) {
        options.log(`  ${short} ${subject}: skipped, ${(err as Error).message.split('\n')[0]}`);
        continue;
      }
      options.log(`  ${short} ${subject}: ${verdict.qualifies ? 'task' : 'skipped'}, ${verdict.reason}`);
      if (!verdict.qualifies || verdict.split === undefined) continue;
      const issue = commitIssue(await git1(clone, ['log', '-1', '--format=%B', commit]));
      const task: SweTask = {
        instanceId: `${slug}-${short}`,
        repo: name,
        baseCommit: parts.parent,
        patch: patches.gold,
        testPatch: patches.test,
        problemStatement: problemStatement(issue),
        failToPass: verdict.split.failToPass,
        passToPass: verdict.split.passToPass,
        testCommand,
        ...(setup === undefined ? {} : { setup }),
        repoPath,
        commit,
        createdAt: await git1(clone, ['log', '-1', '--format=%cI', commit]),
      };
      tasks.push(task);
      options.onTask?.(task);
    }
    return tasks;
  } finally {
    await removeAgentSandbox(clone).catch(() => undefined);
    await rm(clone, { recursive: true, force: true });
  }
}
