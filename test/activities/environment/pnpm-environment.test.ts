/**
 * The environment phase on a real pnpm project (`packageManager: pnpm@9.15.0`; pnpm is
 * not on this machine's PATH): the exact version is fetched from the npm registry into
 * the shared tools dir, `pnpm install` makes the lockfile (committed, as a user would),
 * then fresh worktrees install with --frozen-lockfile from the shared store, and the
 * project's `pnpm test` sees its dependencies through the sandbox.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertPassesInSandbox, nodeTestProject, useEnvironmentProject } from './environment-fixtures.js';

const PNPM = '9.15.0';
const env = useEnvironmentProject(nodeTestProject('env-pnpm', `pnpm@${PNPM}`));

test('pnpm of packageManager fetched once; frozen installs from the shared store; pnpm test in the sandbox', async () => {
  const first = await env.project.worktree();
  const unlocked = await env.prepare(first);
  const tool = unlocked.steps[0];
  assert.equal(tool?.ecosystem, 'pnpm');
  assert.equal(tool?.status, 'ran');
  assert.match(
    tool?.reason ?? '',
    new RegExp(`pnpm ${PNPM} \\(package.json packageManager\\) is not on PATH: fetched`),
  );
  assert.match(
    unlocked.detected.join('\n'),
    /pnpm 9\.15\.0 \(package\.json packageManager\): pnpm install \(package\.json/,
  );
  // The user commits the lockfile pnpm made.
  await env.commitLockfile(first, 'pnpm-lock.yaml');

  const second = await env.project.worktree();
  const frozen = await env.prepare(second);
  assert.match(frozen.detected.join('\n'), /pnpm install --frozen-lockfile \(pnpm-lock\.yaml\)/);
  assert.equal(frozen.steps[0]?.cacheHit, true, 'pnpm reused from the tools dir');
  await assertPassesInSandbox(
    second,
    'pnpm --version && pnpm test',
    new RegExp(`^${PNPM.replace(/\./g, '\\.')}$`, 'm'),
    /# pass 1/,
  );

  const warm = await env.prepareWarm();
  // Issue 29: the frozen install saved a node_modules snapshot of this lockfile; the warm setup copies it.
  assert.equal(warm.steps[1]?.status, 'restored', JSON.stringify(warm.steps));
  assert.match(warm.steps[1]?.reused.join('\n') ?? '', /node_modules snapshot/);
  await assertPassesInSandbox(warm.worktreePath, 'pnpm test', /# pass 1/);
  console.log(
    `pnpm setup: cold (fetch pnpm, resolve) ${unlocked.durationMs} ms, frozen ${frozen.durationMs} ms, warm ${warm.durationMs} ms`,
  );
});
