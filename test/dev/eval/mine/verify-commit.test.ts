/**
 * A candidate is verified as a run's fresh worktree would see its parent, whatever an
 * earlier candidate left in the miner's reused worktree: ignored files (a later version's
 * ignored Cargo.lock broke `cargo fetch --locked` on itoa's history) and the worktree's
 * environment state (a later commit's venv broke an older setup.py install on itsdangerous').
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git } from '../../../../src/activities/workspace/git/git.js';
import { environmentStateDir, removeAgentSandbox } from '../../../../src/activities/workspace/sandbox-state.js';
import { commitParts, patchOf } from '../../../../src/dev/eval/mine/commit-parts.js';
import { verifyCommit } from '../../../../src/dev/eval/mine/verify-commit.js';
import { minedHistory } from '../mined-history.js';

test('leftovers of an earlier candidate (ignored files, environment state) are gone before the parent is set up', async () => {
  const repo = await minedHistory();
  const scratch = await mkdtemp(join(tmpdir(), 'verify-commit-'));
  const clone = join(scratch, 'clone');
  try {
    await git(scratch, ['clone', '-q', repo.dir, clone]);
    const fix = (await repo.git('rev-parse', 'HEAD~2')).trim();
    const parts = await commitParts(clone, fix);
    assert.ok(parts);
    const patches = {
      test: await patchOf(clone, parts, parts.testFiles),
      gold: await patchOf(clone, parts, parts.otherFiles),
    };
    // What an earlier candidate left: an ignored file, and state in the worktree's environment dir.
    await appendFile(join(clone, '.git', 'info', 'exclude'), '\nstale.marker\n');
    await writeFile(join(clone, 'stale.marker'), 'from a later commit\n');
    const state = environmentStateDir(clone);
    await mkdir(state, { recursive: true });
    await writeFile(join(state, 'stale-venv'), 'from a later commit\n');
    const verdict = await verifyCommit(
      { repoPath: repo.dir, worktree: clone, testCommand: 'test ! -e stale.marker && node --test test/' },
      parts,
      patches,
    );
    assert.equal(verdict.qualifies, true, verdict.reason);
    assert.deepEqual(verdict.split?.failToPass, ['clamp lowers values above the range']);
    assert.equal(existsSync(join(state, 'stale-venv')), false, 'the environment state was reset');
  } finally {
    await removeAgentSandbox(clone).catch(() => undefined);
    await rm(scratch, { recursive: true, force: true });
    await repo.cleanup();
  }
});
