/**
 * One step of the environment plan, before it runs: the command, why it runs, which
 * worktree files key it (a retried setup skips a step whose inputs did not change; a
 * second run of the same repository+lockfile finds the shared cache warm), and what it
 * leaves behind. Detection builds these; prepare-environment runs them in order.
 */
import type { Ecosystem } from '../../contracts/environment.js';

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
  /** A path that must exist for an earlier run of the step in this worktree to count. */
  readonly produces?: string;
  /** Warming a cache: a failure is reported, not fatal (the base may not build yet). */
  readonly optional?: boolean;
  /**
   * Everything it leaves is in the shared caches (Maven's local repository): a new
   * worktree whose caches are warm for the same inputs and command skips it.
   */
  readonly cacheOnly?: boolean;
}

/** A package manager the plan needs and the machine may lack: fetched from the npm registry. */
export interface ToolRequest {
  readonly name: 'pnpm' | 'yarn' | 'bun';
  readonly version: string;
  /** `pnpm@9.15.0`, `@yarnpkg/cli-dist@4.5.3`. */
  readonly spec: string;
  /** Whether the version came from package.json `packageManager`. */
  readonly pinned: boolean;
  /** bun's npm package links its platform binary in a postinstall script. */
  readonly needsScripts: boolean;
}

/** POSIX-shell single quoting: the plan's commands embed harness paths. */
export function q(text: string): string {
  return /^[A-Za-z0-9_./:=@+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
