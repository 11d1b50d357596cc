/**
 * What the agent's own build and test commands leave in a repository that does not ignore
 * it: `cargo test` fills `target/` (a 6.9 MB test binary among 47 files), pytest
 * `__pycache__/`. Harness git stages the whole worktree for the run's commits, so a
 * repository with no `.gitignore` got them in its delivered branch (stranger-68).
 *
 * So the build outputs of the ecosystems the repository is of (EcosystemModule.buildOutputs)
 * that it does not ignore already are written into its run's own repository's `info/exclude`
 * (the private copy; never the user's), and the report says so. Nobody commits them on
 * purpose; what the agent writes there is an ignored file, set aside before the checks or
 * never read by them (the validators build in their own outputs: validator-view.ts).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ECOSYSTEMS } from '../../definition/ecosystems/ecosystem-registry.js';
import { git } from '../workspace/git/git.js';
import { privateRepoOf } from '../workspace/private-repo/private-repo-layout.js';
import { appendPrivateExcludes } from '../workspace/ensure-excluded.js';

/** The patterns kept out (with the ecosystem each is of); empty when the repository ignores them all. */
export async function excludeBuildOutputs(worktreePath: string): Promise<readonly string[]> {
  if (privateRepoOf(worktreePath) === undefined) return [];
  const wanted = ECOSYSTEMS.flatMap((module) =>
    module.buildOutputs !== undefined && module.buildOutputs.markers.some((m) => existsSync(path.join(worktreePath, m)))
      ? module.buildOutputs.patterns.map((p) => ({ ...p, ecosystem: module.id }))
      : [],
  );
  const unique = [...new Map(wanted.map((p) => [p.pattern, p])).values()];
  if (unique.length === 0) return [];
  // Already ignored (by the repository's files or the user's exclude): nothing to add.
  const checked = await git(worktreePath, ['check-ignore', '--no-index', '--stdin', '-z'], {
    input: unique.map((p) => p.probe).join('\0'),
  });
  const ignored = new Set(checked.stdout.split('\0').filter(Boolean));
  const missing = unique.filter((p) => !ignored.has(p.probe));
  const written = await appendPrivateExcludes(
    worktreePath,
    missing.map((p) => p.pattern),
    "build outputs the repository does not ignore (the issue agent's)",
  );
  return written ? missing.map((p) => `${p.pattern} (${p.ecosystem})`) : [];
}
