/**
 * The environment phase on a real yarn classic project (yarn is not on this machine's
 * PATH): yarn 1.22.22 is fetched from the npm registry, `yarn install` makes the
 * lockfile (committed, as a user would), a fresh worktree installs with
 * --frozen-lockfile from the shared yarn cache, and `yarn test` runs in the sandbox.
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
      name: 'env-yarn',
      version: '1.0.0',
      private: true,
      packageManager: 'yarn@1.22.22',
      scripts: { test: 'node --test' },
      dependencies: { 'is-number': '7.0.0' },
    },
    null,
    2,
  ),
  '.gitignore': 'node_modules/\n',
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

test('yarn classic fetched once; frozen install from the shared cache; yarn test in the sandbox', async () => {
  const first = await project.worktree();
  const unlocked = await prepareEnvironment({ worktreePath: first, repoPath: project.repo.dir });
  assert.match(
    unlocked.steps[0]?.reason ?? '',
    /yarn 1\.22\.22 \(package\.json packageManager\) is not on PATH: fetched/,
  );
  await copyFile(path.join(first, 'yarn.lock'), path.join(project.repo.dir, 'yarn.lock'));
  await project.repo.git('add', 'yarn.lock');
  await project.repo.git('commit', '--quiet', '-m', 'lockfile');

  const second = await project.worktree();
  const frozen = await prepareEnvironment({ worktreePath: second, repoPath: project.repo.dir });
  assert.match(frozen.detected.join('\n'), /yarn 1\.22\.22 \(classic\): yarn install --frozen-lockfile/);
  const run = await runInSandbox(second, 'yarn --version && yarn test');
  assert.equal(run.exitCode, 0, run.output);
  assert.match(run.output, /^1\.22\.22$/m);
  assert.match(run.output, /# pass 1/);
  const warm = await prepareEnvironment({ worktreePath: await project.worktree(), repoPath: project.repo.dir });
  assert.equal(warm.cached, true, JSON.stringify(warm.steps));
  console.log(`yarn setup: cold ${unlocked.durationMs} ms, frozen ${frozen.durationMs} ms, warm ${warm.durationMs} ms`);
});
