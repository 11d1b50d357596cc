/**
 * The persisted EnvironmentReport of a worktree (`<sandbox state>/environment.json`):
 * written atomically by prepareEnvironment, read by sandbox-launch for every agent
 * command and validator in that worktree. A missing or unreadable file means "no
 * prepared environment" (the sandbox then starts as it did before the phase existed).
 */
import { readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import type { EnvironmentReport } from '../../contracts/environment.js';
import { environmentReportPath, writeSandboxFile } from '../workspace/sandbox-state.js';

type Env = Readonly<Record<string, string | undefined>>;

export async function writeEnvironmentReport(report: EnvironmentReport): Promise<string> {
  const file = environmentReportPath(report.worktreePath);
  // Creates the sandbox dir and its owner file (so a stale one is swept).
  await writeSandboxFile(report.worktreePath, 'environment.json.tmp', '');
  const temp = `${file}.tmp`;
  await writeFile(temp, `${JSON.stringify(report, null, 2)}\n`, { encoding: 'utf8', mode: 0o600 });
  await rename(temp, file);
  return file;
}

function isReport(value: unknown): value is EnvironmentReport {
  if (typeof value !== 'object' || value === null) return false;
  const report = value as Partial<EnvironmentReport>;
  return report.version === 1 && typeof report.sandbox === 'object' && Array.isArray(report.sandbox?.pathPrepend);
}

/** Sync: sandbox-launch reads it on every command; it is a few hundred bytes. */
export function readEnvironmentReport(worktreePath: string, env: Env = process.env): EnvironmentReport | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(environmentReportPath(worktreePath, env), 'utf8'));
    return isReport(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
