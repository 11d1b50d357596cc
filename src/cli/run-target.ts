/**
 * Resolves what a client command talks about: the agent definition, the target
 * repository, the issue and the run's Workflow ID (`<repo-id>/<agent>/issue-<n>`).
 */
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { AgentError } from '../contracts/errors.js';
import { FailureType } from '../contracts/failures.js';
import type { AgentDefinition } from '../contracts/definition.js';
import type { DefinitionOverrides } from '../contracts/repo-config.js';
import type { RepoSettings } from '../definition/repo-config/repo-settings.js';
import { loadAgentDefinitionOrThrow } from '../definition/load/load-agent-definition.js';
import { hasCommits, isGitWorkTree, realOrSelf } from '../activities/workspace/git/repo-queries.js';
import { git } from '../activities/workspace/git/git.js';
import { PROJECT_ROOT } from '../host/project-root.js';
import { optionalString, type ParsedFlags } from './flags/parse-flags.js';

/** `npm run` changes into the package directory; INIT_CWD is where the user was. */
export function userCwd(): string {
  return process.env.INIT_CWD ?? process.cwd();
}

export function resolveUserPath(path: string): string {
  return isAbsolute(path) ? path : resolve(userCwd(), path);
}

/** Where a repository keeps its own agents (`init` copies the default one there). */
export const REPO_AGENTS_DIR = join('.agent', 'agents');

/**
 * --agent NAME (a directory `.agent/agents/NAME` of the repository) or DIR; else the agent
 * named by `.agent/config.json`; else this package's default agent.
 */
export function agentDirOf(flags: ParsedFlags, repo?: { repoPath: string; configured?: string }): string {
  const raw = flags['agent'];
  if (typeof raw === 'string') {
    const named = repo && !/[\\/]/.test(raw) ? join(repo.repoPath, REPO_AGENTS_DIR, raw) : undefined;
    return named !== undefined && existsSync(named) ? named : resolveUserPath(raw);
  }
  return repo?.configured ?? PROJECT_ROOT;
}

export async function checkAgentDir(dir: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new AgentError(FailureType.ConfigInvalid, `agent directory ${dir} does not exist`, {
      where: '--agent',
      expected: 'a directory holding agent.json or registry/agent.json',
    });
  }
}

export async function loadDefinition(
  flags: ParsedFlags,
  repo?: { repoPath: string; configured?: string; overrides?: DefinitionOverrides },
): Promise<AgentDefinition> {
  const dir = agentDirOf(flags, repo);
  await checkAgentDir(dir);
  return loadAgentDefinitionOrThrow(dir, repo?.overrides);
}

/** The agent a run of this repository uses, with the repository's settings applied. */
export async function loadRepoDefinition(
  flags: ParsedFlags,
  repoPath: string,
  settings: Pick<RepoSettings, 'overrides' | 'agentDir'>,
): Promise<AgentDefinition> {
  return loadDefinition(flags, {
    repoPath,
    overrides: settings.overrides,
    ...(settings.agentDir === undefined ? {} : { configured: settings.agentDir }),
  });
}

export { workflowIdFor } from '../host/repo-identity.js';

/** The local repository a command works on: --repo, else the current directory; checked. */
export async function localRepositoryOf(flags: ParsedFlags, options: RepositoryCheck = {}): Promise<string> {
  const given = optionalString(flags, 'repo');
  return checkRepository(resolveUserPath(given ?? userCwd()), given !== undefined, options);
}

export interface RepositoryCheck {
  /** A run starts from it: a repository with no commit yet is refused before any run exists. */
  readonly needsCommit?: boolean;
}

/**
 * The repository a command works on exists and is a git work tree; returned as its work
 * tree's root (from a subdirectory, the issues, `.agent/` and the worktrees are the
 * root's). `given`: it came from --repo; else it is the current directory, and the error
 * says so (no flag to blame).
 */
export async function checkRepository(
  repoPath: string,
  given: boolean,
  options: RepositoryCheck = {},
): Promise<string> {
  const where = given ? '--repo' : 'the current directory (no --repo given)';
  const info = await stat(repoPath).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new AgentError(
      FailureType.RepoNotFound,
      info === undefined ? `repository ${repoPath} does not exist` : `${repoPath} is not a directory`,
      { where, expected: 'a path to a git repository' },
    );
  }
  if (!(await isGitWorkTree(repoPath))) {
    throw new AgentError(FailureType.RepoNotFound, `${repoPath} is not a git repository`, {
      where,
      expected: given
        ? 'a git work tree (git init, or clone one)'
        : 'to be run inside a git work tree, or --repo naming one',
    });
  }
  const root = await workTreeRoot(repoPath);
  if (options.needsCommit === true && !(await hasCommits(root))) {
    throw new AgentError(FailureType.RepoNotFound, `${root} has no commits yet: a run's branch starts from one`, {
      where,
      expected: 'a repository with at least one commit (git commit the project first)',
    });
  }
  return root;
}

/** The work tree's root; the path as given when it is the root already (a symlinked path stays). */
async function workTreeRoot(repoPath: string): Promise<string> {
  const top = await git(repoPath, ['rev-parse', '--show-toplevel']);
  const root = top.exitCode === 0 ? top.stdout.trim() : '';
  if (root === '') return repoPath;
  return (await realOrSelf(repoPath)) === (await realOrSelf(root)) ? repoPath : root;
}
