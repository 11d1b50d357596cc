/**
 * Writes a worktree's environment report as prepareEnvironment would, holding only the
 * fields a test gives: what setup installed there (installed-dependencies.ts: what the
 * sandbox and the editor read to keep it read-only), its warnings, its advice.
 */
import type { EnvironmentReport, SandboxEnvironment } from '../../src/contracts/environment.js';
import { writeEnvironmentReport } from '../../src/activities/environment/environment-file.js';

export async function writeTestReport(
  worktreePath: string,
  fields: Partial<Omit<EnvironmentReport, 'version' | 'worktreePath'>>,
): Promise<void> {
  await writeEnvironmentReport({
    version: 1,
    worktreePath,
    detected: [],
    steps: [],
    cached: false,
    sandbox: { pathPrepend: [], env: {}, readOnlyDirs: [], writableDirs: [] },
    warnings: [],
    durationMs: 0,
    ...fields,
  });
}

export async function writeInstalledReport(
  worktreePath: string,
  installed: NonNullable<SandboxEnvironment['installed']>,
): Promise<void> {
  await writeTestReport(worktreePath, {
    sandbox: { pathPrepend: [], env: {}, readOnlyDirs: [], writableDirs: [], installed },
  });
}
