/**
 * The environment phase on a real yarn berry project (Plug'n'Play, the default linker):
 * `@yarnpkg/cli-dist` of packageManager fetched from the npm registry, the lockfile made
 * by a first install (berry refuses to create one under CI unless told), then
 * `yarn install --immutable` into the shared global cache, which the sandbox shows
 * read-only and PnP reads the packages from, offline; a retried prepare skips it.
 */
import assert from 'node:assert/strict';
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { createEnvironmentActivities } from '../../../src/activities/environment/create-environment-activities.js';
import {
  makeProject,
  removeTempStateDir,
  runInSandbox,
  useTempStateDir,
  type Project,
} from './environment-fixtures.js';

const FILES = {
  'package.json': JSON.stringify(
    {
      name: 'env-berry',
      version: '1.0.0',
      private: true,
      packageManager: 'yarn@4.5.3',
      scripts: { test: 'node --test' },
      dependencies: { 'is-number': '7.0.0' },
    },
    null,
    2,
  ),
  '.gitignore': 'node_modules/\n.yarn/\n.pnp.*\n',
  'is-number.test.js':
    "const test = require('node:test');\nconst assert = require('node:assert');\nconst isNumber = require('is-number');\n" +
    "test('is-number', () => assert.ok(isNumber(5)));\n",
};

let project: Project;
const { prepareEnvironment } = createEnvironmentActivities();

before(async () => {
  await useTempStateDir();
  project = await makeProject(FILES);
});

after(async () => {
  await project.cleanup();
  await removeTempStateDir();
});

test('yarn berry fetched once; immutable install into the global cache; yarn test with PnP in the sandbox', async () => {
  const first = await project.worktree();
  const unlocked = await prepareEnvironment({ worktreePath: first, repoPath: project.repo.dir });
  assert.match(
    unlocked.steps[0]?.reason ?? '',
    /yarn 4\.5\.3 \(package\.json packageManager\) is not on PATH: fetched/,
  );
  await copyFile(path.join(first, 'yarn.lock'), path.join(project.repo.dir, 'yarn.lock'));
  await project.repo.git('add', 'yarn.lock');
  await project.repo.git('commit', '--quiet', '-m', 'lockfile');

  const second = await project.worktree();
  const frozen = await prepareEnvironment({ worktreePath: second, repoPath: project.repo.dir });
  assert.match(frozen.detected.join('\n'), /yarn 4\.5\.3 \(berry\): yarn install --immutable/);
  const run = await runInSandbox(second, 'yarn --version && yarn test');
  assert.equal(run.exitCode, 0, run.output);
  assert.match(run.output, /^4\.5\.3$/m);
  assert.match(run.output, /# pass 1/);
  // Berry rewrites package.json (its own formatting): said, and no reason to redo the install.
  assert.match(frozen.warnings.join('\n'), /setup left 1 change\(s\) git shows in the worktree \(package\.json\)/);
  const retried = await prepareEnvironment({ worktreePath: second, repoPath: project.repo.dir });
  assert.equal(retried.steps[1]?.status, 'skipped', JSON.stringify(retried.steps));
  const warm = await prepareEnvironment({ worktreePath: await project.worktree(), repoPath: project.repo.dir });
  assert.equal(warm.cached, true, JSON.stringify(warm.steps));
  console.log(
    `yarn berry setup: cold ${unlocked.durationMs} ms, frozen ${frozen.durationMs} ms, warm ${warm.durationMs} ms`,
  );
});
