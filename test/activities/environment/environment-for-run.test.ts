/**
 * Setup never runs code the agent wrote: a revived run's worktree already holds the
 * agent's commits, one of which changes `.agent/config.json` `commands.setup` to write a
 * canary. The environment phase reuses the environment prepared when the run began (or
 * prepares none and says so); the real prepareEnvironment never runs on that worktree.
 * A worktree still at its base is prepared, with the base as the guard.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createEnvironmentActivities } from '../../../src/activities/environment/create-environment-activities.js';
import { environmentForRun } from '../../../src/activities/environment/environment-for-run.js';
import type { PrepareEnvironmentInput } from '../../../src/contracts/environment.js';
import { makeProject, removeTempStateDir, useTempStateDir, type Project } from './environment-fixtures.js';

const CANARY = 'setup-ran-agent-code';
let project: Project;
const { prepareEnvironment } = createEnvironmentActivities();

before(async () => {
  await useTempStateDir();
  project = await makeProject({ '.agent/config.json': JSON.stringify({ commands: { setup: 'true' } }) });
});

after(async () => {
  await project.cleanup();
  await removeTempStateDir();
});

/** A worktree on a run branch whose recorded base is main, as prepareWorkspace makes it. */
async function runWorktree(name: string): Promise<string> {
  const dir = await project.worktree(name);
  await project.repo.git('-C', dir, 'checkout', '--quiet', '-b', `agent/${name}`);
  await project.repo.git('config', `branch.agent/${name}.agentBase`, 'main');
  return dir;
}

/** The agent's commit: its own setup command, which would write the canary if run. */
async function agentRewritesSetup(dir: string): Promise<void> {
  const { writeFile } = await import('node:fs/promises');
  await writeFile(
    path.join(dir, '.agent/config.json'),
    JSON.stringify({ commands: { setup: `touch ${path.join(dir, CANARY)}` } }),
  );
  await project.repo.git('-C', dir, 'commit', '--quiet', '-am', 'agent: my own setup');
}

test('a worktree at its base is prepared, with the base commit as the guard', async () => {
  const dir = await runWorktree('fresh');
  const seen: PrepareEnvironmentInput[] = [];
  const report = await environmentForRun(
    async (input) => {
      seen.push(input);
      return prepareEnvironment(input);
    },
    { worktreePath: dir, repoPath: project.repo.dir },
  );
  assert.equal(seen.length, 1);
  assert.equal(seen[0]?.baseCommit, await project.repo.git('rev-parse', 'main'));
  assert.equal(report.steps[0]?.command, 'true');
});

test('a revived worktree reuses the environment prepared when the run began; the agent’s setup never runs', async () => {
  const dir = await runWorktree('revived');
  await prepareEnvironment({ worktreePath: dir, repoPath: project.repo.dir });
  await agentRewritesSetup(dir);
  let called = 0;
  const report = await environmentForRun(
    async (input) => {
      called += 1;
      return prepareEnvironment(input);
    },
    { worktreePath: dir, repoPath: project.repo.dir },
  );
  assert.equal(called, 0);
  assert.equal(existsSync(path.join(dir, CANARY)), false);
  assert.deepEqual(
    report.steps.map((s) => [s.command, s.status]),
    [['true', 'skipped']],
  );
  assert.match(report.warnings.join('\n'), /environment prepared when the run began is reused/);
});

test('a revived worktree with no prepared environment gets none, and says so', async () => {
  const dir = await runWorktree('never-prepared');
  await agentRewritesSetup(dir);
  let called = 0;
  const report = await environmentForRun(
    async (input) => {
      called += 1;
      return prepareEnvironment(input);
    },
    { worktreePath: dir, repoPath: project.repo.dir },
  );
  assert.equal(called, 0);
  assert.equal(existsSync(path.join(dir, CANARY)), false);
  assert.deepEqual(report.steps, []);
  assert.match(report.warnings.join('\n'), /no environment was prepared/);
});
