/**
 * Another run of the same repository rewrites `.git/config` (git writes `config.lock`
 * and renames it over `config`) while this worktree's sandboxed commands start. Each
 * start binds the protected config read-only over itself; a swap between the bind and
 * the read-only remount used to fail the command with `mount: … mount point not
 * mounted` (exit 32), seen in CI as a test validator failing for nothing. Now the
 * prelude tries again, and every command runs.
 *
 * Not asserted: that the config stays read-only for the whole command. A rename on the
 * host over the bound file detaches the bind in the sandbox's namespace, so a command
 * running while another run rewrites the config can write the new file (docs/security.md;
 * the git-state guard restores it after the step, and harness git never runs its hooks).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renameSync, writeFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runBash } from '../../../src/activities/tools/bash-tool.js';
import { detectIsolation, enforcesFilesystem } from '../../../src/activities/tools/process-isolation.js';
import { makeTempGitRepo } from '../../helpers/temp-git-repo.js';
import { toolContext } from './tool-fixtures.js';

test('commands start while another process keeps replacing .git/config', async (t) => {
  if (!enforcesFilesystem(await detectIsolation(() => undefined))) {
    t.skip('no mount namespaces here: protected paths are not bound');
    return;
  }
  const repo = await makeTempGitRepo();
  const config = path.join(repo.dir, '.git', 'config');
  const original = readFileSync(config, 'utf8');
  let swapping = true;
  let swaps = 0;
  // As git does: write a lock file, rename it over the config (the path briefly names a new inode).
  const swapper = (async () => {
    while (swapping) {
      writeFileSync(`${config}.lock`, original);
      renameSync(`${config}.lock`, config);
      swaps += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  try {
    const ctx = toolContext({ worktreePath: repo.dir });
    for (let i = 0; i < 30; i++) {
      const result = await runBash({ command: 'echo ran' }, ctx);
      assert.doesNotMatch(result.content, /mount point not mounted|could not make/, result.content);
      assert.match(result.content, /^ran$/m, result.content);
    }
    assert.ok(swaps > 20, `the config was replaced while the commands started (${swaps} swaps)`);
  } finally {
    swapping = false;
    await swapper;
    await repo.cleanup();
  }
});
