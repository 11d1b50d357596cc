/**
 * The environment phase on a real yarn berry project (Plug'n'Play, the default linker):
 * `@yarnpkg/cli-dist` of packageManager fetched from the npm registry, the lockfile made
 * by a first install (berry refuses to create one under CI unless told), then
 * `yarn install --immutable` into the shared global cache, which the sandbox shows
 * read-only and PnP reads the packages from, offline; a retried prepare skips it. A
 * `.yarnrc.yml` `yarnPath` to a release git ignores is ignored (YARN_IGNORE_PATH).
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { assertPassesInSandbox, nodeTestProject, useEnvironmentProject } from './environment-fixtures.js';

const env = useEnvironmentProject(nodeTestProject('env-berry', 'yarn@4.5.3', 'node_modules/\n.yarn/\n.pnp.*\n'));

test('yarn berry fetched once; immutable install into the global cache; yarn test with PnP in the sandbox', async () => {
  const first = await env.project.worktree();
  const unlocked = await env.prepare(first);
  assert.match(
    unlocked.steps[0]?.reason ?? '',
    /yarn 4\.5\.3 \(package\.json packageManager\) is not on PATH: fetched/,
  );
  await env.commitLockfile(first, 'yarn.lock');

  const second = await env.project.worktree();
  const frozen = await env.prepare(second);
  assert.match(frozen.detected.join('\n'), /yarn 4\.5\.3 \(berry\): yarn install --immutable/);
  await assertPassesInSandbox(second, 'yarn --version && yarn test', /^4\.5\.3$/m, /# pass 1/);
  // Berry rewrites package.json (its own formatting): said, and no reason to redo the install.
  assert.match(frozen.warnings.join('\n'), /setup left 1 change\(s\) git shows in the worktree \(package\.json\)/);
  const retried = await env.prepare(second);
  assert.equal(retried.steps[1]?.status, 'skipped', JSON.stringify(retried.steps));
  const warm = await env.prepareWarm();
  console.log(
    `yarn berry setup: cold ${unlocked.durationMs} ms, frozen ${frozen.durationMs} ms, warm ${warm.durationMs} ms`,
  );
});

test('a yarnPath the checkout lacks (.yarn/releases ignored) is ignored by setup and in the sandbox', async () => {
  const { repo } = env.project;
  await writeFile(path.join(repo.dir, '.yarnrc.yml'), 'yarnPath: .yarn/releases/yarn-4.5.3.cjs\n');
  await repo.git('add', '.yarnrc.yml');
  await repo.git('commit', '--quiet', '-m', 'yarnPath to a release kept out of git');
  const dir = await env.project.worktree();
  const report = await env.prepare(dir);
  assert.match(
    report.detected.join('\n'),
    /yarnPath \.yarn\/releases\/yarn-4\.5\.3\.cjs is not in the repository: ignored/,
  );
  assert.equal(report.steps.at(-1)?.status, 'ran', JSON.stringify(report.steps));
  await assertPassesInSandbox(dir, 'yarn --version && yarn test', /^4\.5\.3$/m, /# pass 1/);
});
