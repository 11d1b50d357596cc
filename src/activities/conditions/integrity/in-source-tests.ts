/**
 * The test items of the Rust source files a diff changed (`#[cfg(test)] mod tests`,
 * `#[test] fn` in `src/lib.rs`), in the base's text and in the worktree's: the diff alone
 * (-U0) cannot say whether a removed line sat inside a test module, so the detector gets
 * their line ranges and judges those lines as a test file's (detect-test-weakening.ts).
 * The items are found by baseline/rust-test-items.ts's scanner, the one that tells a
 * Rust file's test changes from its code changes for fixed-in-tests-only.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from '../../workspace/git/git.js';
import { rustTestItems } from '../baseline/rust-test-items.js';
import type { InSourceTests } from './detect-test-weakening.js';
import { FileChange, type FileDiff } from './parse-unified-diff.js';
import { isTestFile } from './weakening-rules.js';

/** By path, for each changed `.rs` file that is no test file and held or holds test items. */
export async function inSourceTests(
  worktreePath: string,
  base: string,
  files: readonly FileDiff[],
): Promise<Map<string, InSourceTests>> {
  const found = new Map<string, InSourceTests>();
  for (const f of files) {
    if (!f.path.endsWith('.rs') || isTestFile(f.path) || f.binary) continue;
    const old = f.change === FileChange.Added ? '' : await baseText(worktreePath, base, f.path);
    const now = f.change === FileChange.Deleted ? '' : await worktreeText(worktreePath, f.path);
    const items = { old: old === '' ? [] : rustTestItems(old), now: now === '' ? [] : rustTestItems(now) };
    if (items.old.length > 0 || items.now.length > 0) found.set(f.path, items);
  }
  return found;
}

/** The file as on the base; empty when git cannot show it (then it held no tests to lose). */
async function baseText(worktreePath: string, base: string, path: string): Promise<string> {
  const shown = await git(worktreePath, ['cat-file', 'blob', `${base}:${path}`]);
  return shown.exitCode === 0 ? shown.stdout : '';
}

async function worktreeText(worktreePath: string, path: string): Promise<string> {
  try {
    return await readFile(join(worktreePath, path), 'utf8');
  } catch {
    return '';
  }
}
