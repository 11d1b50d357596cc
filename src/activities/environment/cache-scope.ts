/**
 * Whose runs share the package caches, set by the operator in the worker's environment
 * (`ISSUE_AGENT_CACHE_SCOPE`), never by a repository:
 *
 * - `repository` (default): each repository has caches of its own. A setup runs the
 *   repository's code and may write its ecosystem's caches (setup-scope.ts); pip's wheel
 *   cache, cargo's extracted sources, Go's module dirs and Maven's jars are not checked
 *   again when read, so a hostile repository's setup could otherwise plant what another
 *   repository of the same ecosystem compiles and tests. The first run of each
 *   repository fetches its packages; later runs (every issue of it) find them warm.
 * - `worker`: every repository the worker serves shares one set (a warm cache for a
 *   new repository of the same lockfile), for repositories that trust one another.
 *
 * The fetched tools (pinned package managers) are shared either way: only a tool fetch,
 * which runs none of a repository's code, writes them.
 */
import { AgentError } from '../../contracts/errors.js';
import { FailureType } from '../../contracts/failures.js';

export const CacheScope = { Repository: 'repository', Worker: 'worker' } as const;
export type CacheScope = (typeof CacheScope)[keyof typeof CacheScope];

export const CACHE_SCOPE_ENV = 'ISSUE_AGENT_CACHE_SCOPE';

export function cacheScopeFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): CacheScope {
  const raw = env[CACHE_SCOPE_ENV]?.trim().toLowerCase();
  if (raw === undefined || raw === '' || raw === CacheScope.Repository) return CacheScope.Repository;
  if (raw === CacheScope.Worker) return CacheScope.Worker;
  throw new AgentError(FailureType.ConfigInvalid, `${CACHE_SCOPE_ENV}=${JSON.stringify(raw)} is not a cache scope`, {
    where: CACHE_SCOPE_ENV,
    expected: `${CacheScope.Repository} (default: caches of each repository's own) or ${CacheScope.Worker} (one set shared by every repository)`,
  });
}
