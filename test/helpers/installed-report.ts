/**
 * Writes a worktree's environment report holding only what setup installed there, as
 * prepareEnvironment would after installing (installed-dependencies.ts): what the sandbox
 * and the editor read to keep it read-only.
 */
import type { SandboxEnvironment } from '../../src/contracts/environment.js';
import { writeEnvironmentReport } from '../../src/activities/environment/environment-file.js';

export async function writeInstalledReport(
  worktreePath: string,
  installed: NonNullable<SandboxEnvironment['installed']>,
): Promise<void> {
  await writeEnvironmentReport({
    version: 1,
    worktreePath,
    detected: [],
    steps: [],
    cached: false,
    sandbox: { pathPrepend: [], env: {}, readOnlyDirs: [], writableDirs: [], installed },
    warnings: [],
    durationMs: 0,
  });
}
