/**
 * A stable identity for a target repository, so runs of the same issue number in two
 * repositories never share a Workflow ID: `<slug>-<hash>`, the slug from the repository's
 * directory name, the hash from the absolute path of its common git dir (the same for
 * every worktree of one repository, different for two clones). Also the RepoId search
 * attribute, by which control commands find a run from --repo and --issue alone.
 */
import { createHash } from 'node:crypto';
import { basename, dirname } from 'node:path';
import { FailureType } from '../contracts/failures.js';
import { gitOrThrow } from '../activities/workspace/git/git.js';
import { realOrSelf } from '../activities/workspace/git/repo-queries.js';

export interface RepoIdentity {
  /** `<slug>-<8 hex>`, safe in a Workflow ID and a search attribute value. */
  readonly id: string;
  /** The repository's common git dir (absolute, symlinks resolved). */
  readonly commonDir: string;
}

export function repoSlug(topLevel: string): string {
  const slug = basename(topLevel)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 40);
  return slug === '' ? 'repo' : slug;
}

export function repoIdOf(commonDir: string): string {
  const top = basename(commonDir) === '.git' ? dirname(commonDir) : commonDir;
  const hash = createHash('sha256').update(commonDir).digest('hex').slice(0, 8);
  return `${repoSlug(top)}-${hash}`;
}

export async function repoIdentity(repoPath: string): Promise<RepoIdentity> {
  const raw = await gitOrThrow(
    repoPath,
    ['rev-parse', '--path-format=absolute', '--git-common-dir'],
    FailureType.RepoNotFound,
  );
  const commonDir = await realOrSelf(raw);
  return { id: repoIdOf(commonDir), commonDir };
}

/** The run of one issue of one repository by one agent. */
export function workflowIdFor(repoId: string, agentName: string, issue: number): string {
  return `${repoId}/${agentName}/issue-${issue}`;
}
