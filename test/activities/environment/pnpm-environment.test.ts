/**
 * The environment phase on a real pnpm project (`packageManager: pnpm@9.15.0`; pnpm is
 * not on this machine's PATH): the exact version is fetched from the npm registry into
 * the shared tools dir, `pnpm install` makes the lockfile (committed, as a user would),
 * then fresh worktrees install with --frozen-lockfile from the shared store, and the
 * project's `pnpm test` sees its dependencies through the sandbox.
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

const PNPM = '9.15.0';
const FILES = {
  'package.json': JSON.stringify(
    {
      name: 'env-pnpm',
      version: '1.0.0',
      private: true,
      packageManager: `pnpm@${PNPM}`,
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

test('pnpm of packageManager fetched once; frozen installs from the shared store; pnpm test in the sandbox', async () => {
  const first = await project.worktree();
  const unlocked = await prepareEnvironment({ worktreePath: first, repoPath: project.repo.dir });
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
  await copyFile(path.join(first, 'pnpm-lock.yaml'), path.join(project.repo.dir, 'pnpm-lock.yaml'));
  await project.repo.git('add', 'pnpm-lock.yaml');
  await project.repo.git('commit', '--quiet', '-m', 'lockfile');

  const second = await project.worktree();
  const frozen = await prepareEnvironment({ worktreePath: second, repoPath: project.repo.dir });
  assert.match(frozen.detected.join('\n'), /pnpm install --frozen-lockfile \(pnpm-lock\.yaml\)/);
  assert.equal(frozen.steps[0]?.cacheHit, true, 'pnpm reused from the tools dir');
  const run = await runInSandbox(second, 'pnpm --version && pnpm test');
  assert.equal(run.exitCode, 0, run.output);
  assert.match(run.output, new RegExp(`^${PNPM.replace(/\./g, '\\.')}$`, 'm'));
  assert.match(run.output, /# pass 1/);

  const third = await project.worktree();
  const warm = await prepareEnvironment({ worktreePath: third, repoPath: project.repo.dir });
  assert.equal(warm.cached, true, JSON.stringify(warm.steps));
  assert.match(warm.steps[1]?.reused.join('\n') ?? '', /pnpm store/);
  console.log(
    `pnpm setup: cold (fetch pnpm, resolve) ${unlocked.durationMs} ms, frozen ${frozen.durationMs} ms, warm ${warm.durationMs} ms`,
  );
});
