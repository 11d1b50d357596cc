/**
 * Setup never runs code the agent wrote: a revived run's worktree already holds the
 * agent's commits, one of which changes `.agent/config.json` `commands.setup` to write a
 * canary. The environment phase reuses the environment prepared when the run began (or
 * prepares none and says so); the real prepareEnvironment never runs on that worktree.
 * A worktree still at its base is prepared, with the base as the guard. A setup the user
 * changed after the worktree was prepared does not run there either; the warning says how
 * to get it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { environmentForRun } from '../../../src/activities/environment/environment-for-run.js';
import type { EnvironmentReport, PrepareEnvironmentInput } from '../../../src/contracts/environment.js';
import { useEnvironmentProject } from './environment-fixtures.js';

const CANARY = 'setup-ran-agent-code';
const env = useEnvironmentProject({ '.agent/config.json': JSON.stringify({ commands: { setup: 'true' } }) });

/** A worktree on a run branch whose recorded base is main, as prepareWorkspace makes it. */
async function runWorktree(name: string): Promise<string> {
  const dir = await env.project.worktree(name);
  await env.project.repo.git('-C', dir, 'checkout', '--quiet', '-b', `agent/${name}`);
  await env.project.repo.git('config', `branch.agent/${name}.agentBase`, 'main');
  return dir;
}

/** The agent's commit: its own setup command, which would write the canary if run. */
async function agentRewritesSetup(dir: string): Promise<void> {
  const { writeFile } = await import('node:fs/promises');
  await writeFile(
    path.join(dir, '.agent/config.json'),
    JSON.stringify({ commands: { setup: `touch ${path.join(dir, CANARY)}` } }),
  );
  await env.project.repo.git('-C', dir, 'commit', '--quiet', '-am', 'agent: my own setup');
}

/** environmentForRun on `dir` with the real prepareEnvironment, and the inputs that reached it. */
async function forRun(
  dir: string,
  setup?: readonly string[],
): Promise<{ report: EnvironmentReport; seen: PrepareEnvironmentInput[] }> {
  const seen: PrepareEnvironmentInput[] = [];
  const report = await environmentForRun(
    async (input) => {
      seen.push(input);
      return env.prepareEnvironment(input);
    },
    { worktreePath: dir, repoPath: env.project.repo.dir, ...(setup === undefined ? {} : { setup }) },
  );
  return { report, seen };
}

test('a worktree at its base is prepared, with the base commit as the guard', async () => {
  const dir = await runWorktree('fresh');
  const { report, seen } = await forRun(dir);
  assert.equal(seen.length, 1);
  assert.equal(seen[0]?.baseCommit, await env.project.repo.git('rev-parse', 'main'));
  assert.equal(report.steps[0]?.command, 'true');
});

test('a revived worktree reuses the environment prepared when the run began; the agent’s setup never runs', async () => {
  const dir = await runWorktree('revived');
  await env.prepare(dir);
  await agentRewritesSetup(dir);
  const { report, seen } = await forRun(dir);
  assert.equal(seen.length, 0);
  assert.equal(existsSync(path.join(dir, CANARY)), false);
  assert.deepEqual(
    report.steps.map((s) => [s.command, s.status]),
    [['true', 'skipped']],
  );
  assert.match(report.warnings.join('\n'), /environment prepared when the run began is reused/);
});

test('a setup the user changed after the worktree was prepared does not run there; the warning says how to get it', async () => {
  const dir = await runWorktree('setup-changed');
  await env.prepare(dir);
  const { report, seen } = await forRun(dir, ['true', 'mvn -B dependency:go-offline']);
  assert.equal(seen.length, 0, 'a prepared worktree is never prepared again');
  const warnings = report.warnings.join('\n');
  assert.match(
    warnings,
    /commands\.setup changed since this worktree was prepared, and `mvn -B dependency:go-offline` did not run/,
  );
  assert.ok(warnings.includes(`git worktree remove --force ${dir}`), warnings);
  const same = await forRun(dir, ['true']);
  assert.doesNotMatch(same.report.warnings.join('\n'), /changed since/, 'the same setup says nothing more');
});

test('a revived worktree with no prepared environment gets none, and says so', async () => {
  const dir = await runWorktree('never-prepared');
  await agentRewritesSetup(dir);
  const { report, seen } = await forRun(dir);
  assert.equal(seen.length, 0);
  assert.equal(existsSync(path.join(dir, CANARY)), false);
  assert.deepEqual(report.steps, []);
  assert.match(report.warnings.join('\n'), /no environment was prepared/);
});
