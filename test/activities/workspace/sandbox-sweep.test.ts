/**
 * The sweep of stale sandbox state: a sandbox whose worktree is gone is removed, a live
 * one kept, also while its run rewrites its state; at run starts the sweep runs at most
 * once a minute per process and root.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import {
  ensureAgentHome,
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

test('a sandbox whose owner file is empty or being written is kept: another run may be writing it', async () => {
  const env = { ISSUE_AGENT_STATE_DIR: join(root, 'c') };
  const dir = sandboxDir(join(root, 'being-made'), env);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'worktree'), '');
  assert.deepEqual(await sweepStaleSandboxes(env), []);
  assert.equal(existsSync(dir), true);
});

test("another run's sweeps never remove a live worktree's sandbox while its launches touch it", async () => {
  // Every sandbox launch ensures the agent's HOME; runs starting in the same state dir sweep.
  // The private repository (the agent's commits) lives in this directory: losing it mid-step
  // turned the agent's next `git commit` into a write to the user's read-only refs.
  const env = { ISSUE_AGENT_STATE_DIR: join(root, 'd') };
  const live = join(root, 'live-during-sweeps');
  await mkdir(live);
  const saved = process.env['ISSUE_AGENT_STATE_DIR'];
  process.env['ISSUE_AGENT_STATE_DIR'] = env.ISSUE_AGENT_STATE_DIR;
  try {
    await ensureAgentHome(live);
    const marker = join(sandboxDir(live, env), 'repo-marker');
    await writeFile(marker, 'the private repository');
    const owner = join(sandboxDir(live, env), 'worktree');
    const written = statSync(owner).ino;
    let launching = true;
    const launches = (async () => {
      for (let i = 0; i < 400; i++) await ensureAgentHome(live);
      launching = false;
    })();
    const removed: string[] = [];
    while (launching) removed.push(...(await sweepStaleSandboxes(env)));
    await launches;
    assert.deepEqual(removed, [], 'a sweep removed the live sandbox');
    assert.equal(existsSync(marker), true);
    assert.equal(statSync(owner).ino, written, 'the owner file is written once, not on every launch');
    assert.equal(readFileSync(owner, 'utf8'), live);
  } finally {
    if (saved === undefined) delete process.env['ISSUE_AGENT_STATE_DIR'];
    else process.env['ISSUE_AGENT_STATE_DIR'] = saved;
  }
});
