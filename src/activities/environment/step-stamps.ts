/**
 * Stamps that make the environment phase idempotent and its cache reuse visible.
 * A worktree stamp says this step already succeeded here with the same command and
 * inputs (a retried or resumed activity skips it); a shared stamp says a cache already
 * holds what this step needs for the same repository+lockfile (the report says
 * `cacheHit`, so tests assert reuse without timing). Keys hash the inputs' committed content.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sha } from './cache-layout.js';
import type { PlannedStep } from './planned-step.js';
import { git } from '../workspace/git/git.js';

export interface StepKeys {
  /** This worktree: step, exact command, inputs. */
  readonly worktree: string;
  /** The shared caches: step, caches, inputs (not the worktree's paths). */
  readonly shared: string;
}

/**
 * An input as committed at HEAD (the base commit): setup itself may rewrite a tracked
 * file (yarn berry reformats package.json), which must not make a retry miss its stamp.
 * Untracked, or not a git worktree: the file as it is.
 */
async function committed(dir: string, file: string): Promise<string> {
  const blob = await git(dir, ['cat-file', 'blob', `HEAD:${file}`]).catch(() => undefined);
  if (blob?.exitCode === 0) return blob.stdout;
  return readFile(path.join(dir, file), 'utf8').catch(() => '');
}

export async function stepKeys(dir: string, step: PlannedStep): Promise<StepKeys> {
  const contents = await Promise.all(step.inputs.map(async (file) => `${file}\n${await committed(dir, file)}`));
  return {
    worktree: sha(step.id, step.command, ...contents),
    // A step skipped on a warm cache (cacheOnly) must run again when its command changes.
    shared: sha(step.id, step.ecosystem, ...step.caches, ...contents, ...(step.cacheOnly ? [step.command] : [])),
  };
}

export async function hasStamp(stampDir: string, key: string): Promise<boolean> {
  return readFile(path.join(stampDir, key), 'utf8').then(
    () => true,
    () => false,
  );
}

export async function writeStamp(stampDir: string, key: string, step: PlannedStep): Promise<void> {
  await mkdir(stampDir, { recursive: true });
  const body = JSON.stringify({ id: step.id, command: step.command, at: new Date().toISOString() });
  await writeFile(path.join(stampDir, key), `${body}\n`, 'utf8');
}
