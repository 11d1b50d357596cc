/**
 * The environment phase on a real yarn classic project (yarn is not on this machine's
 * PATH): yarn 1.22.22 is fetched from the npm registry, `yarn install` makes the
 * lockfile (committed, as a user would), a fresh worktree installs with
 * --frozen-lockfile from the shared yarn cache, and `yarn test` runs in the sandbox.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertPassesInSandbox, nodeTestProject, useEnvironmentProject } from './environment-fixtures.js';

const env = useEnvironmentProject(nodeTestProject('env-yarn', 'yarn@1.22.22'));

test('yarn classic fetched once; frozen install from the shared cache; yarn test in the sandbox', async () => {
  const first = await env.project.worktree();
  const unlocked = await env.prepare(first);
  assert.match(
    unlocked.steps[0]?.reason ?? '',
    /yarn 1\.22\.22 \(package\.json packageManager\) is not on PATH: fetched/,
  );
  await env.commitLockfile(first, 'yarn.lock');

  const second = await env.project.worktree();
  const frozen = await env.prepare(second);
  assert.match(frozen.detected.join('\n'), /yarn 1\.22\.22 \(classic\): yarn install --frozen-lockfile/);
  await assertPassesInSandbox(second, 'yarn --version && yarn test', /^1\.22\.22$/m, /# pass 1/);
  const warm = await env.prepareWarm();
  console.log(`yarn setup: cold ${unlocked.durationMs} ms, frozen ${frozen.durationMs} ms, warm ${warm.durationMs} ms`);
});
