/**
 * Resolves what a client command talks about: the agent definition, the target
 * repository, the issue and the run's Workflow ID (`<repo-id>/<agent>/issue-<n>`).
 */
import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { AgentError } from '../contracts/errors.js';
import { FailureType } from '../contracts/failures.js';
import type { AgentDefinition } from '../contracts/definition.js';
import { loadAgentDefinitionOrThrow } from '../definition/load/load-agent-definition.js';
import { isGitWorkTree } from '../activities/workspace/git/repo-queries.js';
import { PROJECT_ROOT } from './temporal/temporal-cli.js';
import type { ParsedFlags } from './parse-flags.js';

/** `npm run` changes into the package directory; INIT_CWD is where the user was. */
export function userCwd(): string {
  return process.env.INIT_CWD ?? process.cwd();
}

export function resolveUserPath(path: string): string {
  return isAbsolute(path) ? path : resolve(userCwd(), path);
}

export function agentDirOf(flags: ParsedFlags): string {
  const raw = flags['agent'];
  return typeof raw === 'string' ? resolveUserPath(raw) : PROJECT_ROOT;
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

export async function loadDefinition(flags: ParsedFlags): Promise<AgentDefinition> {
  const dir = agentDirOf(flags);
  await checkAgentDir(dir);
  return loadAgentDefinitionOrThrow(dir);
}

export { workflowIdFor } from './repo-identity.js';

export async function checkRepository(repoPath: string): Promise<void> {
  const info = await stat(repoPath).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new AgentError(FailureType.RepoNotFound, `repository ${repoPath} does not exist`, {
      where: '--repo',
      expected: 'a path to a git repository',
    });
  }
  if (!(await isGitWorkTree(repoPath))) {
    throw new AgentError(FailureType.RepoNotFound, `${repoPath} is not a git repository`, {
      where: '--repo',
      expected: 'a git work tree (git init, or clone one)',
    });
  }
}
