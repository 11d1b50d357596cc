/**
 * The sweep of stale sandbox state: a sandbox whose worktree is gone is removed, a live
 * one kept; at run starts the sweep runs at most once a minute per process and root.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import {
  sandboxDir,
  sweepStaleSandboxes,
  sweepStaleSandboxesOccasionally,
} from '../../../src/activities/workspace/sandbox-state.js';

let root: string;
before(async () => {
  root = await mkdtemp(join(tmpdir(), 'sweep-'));
});
after(() => rm(root, { recursive: true, force: true }));

async function sandboxFor(worktree: string, env: Record<string, string>): Promise<string> {
  const dir = sandboxDir(worktree, env);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'worktree'), worktree);
  return dir;
}

test('a sandbox whose worktree is gone is removed; a live one is kept', async () => {
  const env = { ISSUE_AGENT_STATE_DIR: join(root, 'a') };
  const live = join(root, 'live-worktree');
  await mkdir(live);
  const kept = await sandboxFor(live, env);
  const stale = await sandboxFor(join(root, 'gone-worktree'), env);
  assert.deepEqual(await sweepStaleSandboxes(env), [stale]);
  assert.equal(existsSync(kept), true);
  assert.equal(existsSync(stale), false);
});

test('at run starts, one sweep a minute per root', async () => {
  const env = { ISSUE_AGENT_STATE_DIR: join(root, 'b') };
  const now = Date.now();
  const first = await sandboxFor(join(root, 'gone-1'), env);
  assert.deepEqual(await sweepStaleSandboxesOccasionally(env, now), [first]);
  const second = await sandboxFor(join(root, 'gone-2'), env);
  assert.deepEqual(await sweepStaleSandboxesOccasionally(env, now + 30_000), [], 'swept 30 s ago: skipped');
  assert.equal(existsSync(second), true);
  assert.deepEqual(await sweepStaleSandboxesOccasionally(env, now + 61_000), [second], 'a minute later: swept');
});
