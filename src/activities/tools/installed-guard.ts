/**
 * What setup installed in the worktree (its node_modules) is read-only to the agent's
 * commands (sandbox-launch binds it so), and the validators run it: a test runner the
 * agent replaced would decide the verdict. The editor writes on the host, outside any
 * sandbox, so the same rule is checked here for its writes: a path inside an installed
 * directory is refused, but for the caches test tools write there. Reads are allowed.
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { readEnvironmentReport } from '../environment/environment-file.js';
import { isInside } from '../../definition/load/path-inside.js';

/** Why the editor may not write `absolute` (a real path in the worktree), or undefined when it may. */
export async function installedWriteRefusal(
  worktreePath: string,
  absolute: string,
  requested: string,
): Promise<string | undefined> {
  const installed = readEnvironmentReport(worktreePath)?.sandbox.installed;
  if (installed === undefined) return undefined;
  // The report names directories under the worktree's path as given; `absolute` is real.
  const root = await realpath(worktreePath);
  const real = (dir: string): string => path.join(root, path.relative(path.resolve(worktreePath), dir));
  if (installed.writable.some((dir) => isInside(real(dir), absolute))) return undefined;
  const dir = installed.readOnly.find((d) => isInside(real(d), absolute));
  if (dir === undefined) return undefined;
  const name = path.relative(path.resolve(worktreePath), dir);
  return `${requested} is inside ${name}, which setup installed: installed dependencies are read-only to the agent (change the manifest and the lockfile instead; setup installs from them)`;
}
