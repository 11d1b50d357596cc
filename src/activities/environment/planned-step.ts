/**
 * One step of the environment plan, before it runs: the command, why it runs, which
 * worktree files key it (a retried setup skips a step whose inputs did not change; a
 * second run of the same repository+lockfile finds the shared cache warm), and what it
 * leaves behind. Each ecosystem's setup plans them (registry-setup.ts); prepare-environment
 * runs them in order.
 */
import type { Ecosystem } from '../../contracts/environment.js';
import type { CacheOwners } from './setup-scope.js';

export interface PlannedStep {
  /** Stable within a plan: `npm-install`, `python-venv`, `go-download`, `setup-0` … */
  readonly id: string;
  readonly ecosystem: Ecosystem;
  readonly command: string;
  /** One line: what was detected and why this command. */
  readonly reason: string;
  /** Worktree-relative files whose content keys the step (lockfiles, pyproject.toml). */
  readonly inputs: readonly string[];
  /** The shared caches it fills, for the report (`npm cache /…/cache/npm`). */
  readonly caches: readonly string[];
  /** Whose shared caches it may write (setup-scope.ts): the ecosystem that planned it, or all for `commands.setup`. */
  readonly owners: CacheOwners;
  /** It fetches a pinned tool into the shared tools dir, which only such a step writes. */
  readonly installsTool?: boolean;
  /** A path that must exist for an earlier run of the step in this worktree to count. */
  readonly produces?: string;
  /** Warming a cache: a failure is reported, not fatal (the base may not build yet). */
  readonly optional?: boolean;
  /**
   * Everything it leaves is in the shared caches (Maven's local repository): a new
   * worktree whose caches are warm for the same inputs and command skips it.
   */
  readonly cacheOnly?: boolean;
  /** What it produces may be a copy of an earlier install of the same inputs (node-modules-snapshot.ts decides). */
  readonly snapshot?: boolean;
}
