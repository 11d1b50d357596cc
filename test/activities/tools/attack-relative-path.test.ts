/**
 * The sandbox's own launcher must not be the agent's. Agent commands start as
 * `setpriv … unshare … bash -c <prelude>`, by name, in the worktree, with the PATH the
 * worker forwards; `unshare` and `bash` are looked up again inside. A worker whose PATH
 * holds a relative entry (`node_modules/.bin`, `.`, or the empty one that a trailing `:`
 * from `PATH=$PATH:$UNSET` makes) would find those names in the worktree, which the agent
 * writes: its `setpriv` then runs on the host, outside every namespace, where the worker's
 * `/proc/<pid>/environ` is readable. The agent plants all three in its worktree from the
 * sandbox; a validator's next command must still run sandboxed, and none of them.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { createSpawnerCommandRunner } from '../../../src/activities/process/spawner-command-runner.js';
import { makeTempGitRepo } from '../../helpers/temp-git-repo.js';

const stateDir = await mkdtemp(path.join(os.tmpdir(), 'relative-path-state-'));
const hostOnly = await mkdtemp(path.join(os.tmpdir(), 'relative-path-host-'));
process.env['ISSUE_AGENT_STATE_DIR'] = stateDir;
const originalPath = process.env['PATH'] ?? '';
after(async () => {
  process.env['PATH'] = originalPath;
  await rm(stateDir, { recursive: true, force: true });
  await rm(hostOnly, { recursive: true, force: true });
});

test('a relative PATH entry of the worker never runs the agent’s programs as the sandbox launcher', async () => {
  const repo = await makeTempGitRepo({ files: { 'README.md': 'x\n' } });
  try {
    const runner = createSpawnerCommandRunner();
    const marker = path.join(hostOnly, 'ran-on-host');
    const fake = `#!/bin/sh\\necho "$0" >> ${marker}\\nexit 0\\n`;
    const plant = await runner.run({
      command: `mkdir -p node_modules/.bin && for p in setpriv unshare bash; do printf '${fake}' > node_modules/.bin/$p; chmod +x node_modules/.bin/$p; done; echo planted`,
      cwd: repo.dir,
      timeoutMs: 30_000,
    });
    assert.match(plant.all, /planted/);
    for (const entries of [`node_modules/.bin:${originalPath}`, `${originalPath}:`]) {
      process.env['PATH'] = entries;
      if (entries.endsWith(':')) {
        // The empty entry is the directory itself: the planted programs at the worktree's top.
        await runner.run({ command: 'cp node_modules/.bin/* .', cwd: repo.dir, timeoutMs: 30_000 });
      }
      const next = await runner.run({ command: 'echo "sandboxed as $(id -u)"', cwd: repo.dir, timeoutMs: 30_000 });
      process.env['PATH'] = originalPath;
      assert.equal(existsSync(marker), false, `PATH=${entries.slice(0, 20)}…: the agent's launcher ran on the host`);
      assert.match(next.all, /sandboxed as/, next.all);
    }
  } finally {
    process.env['PATH'] = originalPath;
    await repo.cleanup();
  }
});
