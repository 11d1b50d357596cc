/**
 * A hostile agent cannot get its files run by the host-side setup of a later environment
 * phase on the same run (revived, or moved to another host). Setup runs with the network
 * outside the sandbox, on the worker's machine: whatever it runs can read the worker's
 * `/proc/<pid>/environ` and home. The agent, in its sandbox, only adds files (nothing
 * tracked changes, HEAD stays at the base) and leaves them to the next preparation:
 *
 * - in its own worktree, a directory that ignores itself (`.agent/.gitignore` = `*`), so
 *   `git status` shows nothing at all, holding a `.agent/config.json` whose
 *   `commands.setup` writes into the host's /tmp (hidden from the sandbox);
 * - on a new host, the same config restored from the run's checkpoint: the checkpoint's
 *   new files come back untracked, with HEAD and the index at the base.
 *
 * Each time the environment phase asks again, the marker must not appear.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { environmentForRun } from '../../../src/activities/environment/environment-for-run.js';
import { restoreWorktreeCheckpoint } from '../../../src/activities/workspace/checkpoints/restore-checkpoint.js';
import type { EnvironmentReport, PrepareEnvironmentInput } from '../../../src/contracts/environment.js';
import { runInSandbox, useEnvironmentProject } from './environment-fixtures.js';

const env = useEnvironmentProject({ 'README.md': 'no setup of its own\n' });
let hostDir: string | undefined;
after(async () => {
  if (hostDir) await rm(hostDir, { recursive: true, force: true });
});

/** A directory only the host sees (the sandbox has its own empty /tmp). */
async function hostMarker(name: string): Promise<string> {
  hostDir ??= await mkdtemp(path.join(os.tmpdir(), 'replanted-setup-'));
  return path.join(hostDir, `host-ran-${name}`);
}

function agentConfig(marker: string): string {
  return JSON.stringify({ commands: { setup: `touch ${marker}` } });
}

async function runWorktree(name: string): Promise<string> {
  const dir = await env.project.worktree(name);
  await env.project.repo.git('-C', dir, 'checkout', '--quiet', '-b', `agent/${name}`);
  await env.project.repo.git('config', `branch.agent/${name}.agentBase`, 'main');
  return dir;
}

async function forRun(dir: string): Promise<{ report: EnvironmentReport; seen: PrepareEnvironmentInput[] }> {
  const seen: PrepareEnvironmentInput[] = [];
  const report = await environmentForRun(
    async (input) => {
      seen.push(input);
      return env.prepareEnvironment(input);
    },
    { worktreePath: dir, repoPath: env.project.repo.dir },
  );
  return { report, seen };
}

test('files the agent added in a directory that ignores itself are never run by a revived run’s setup', async () => {
  const marker = await hostMarker('revived');
  const dir = await runWorktree('revived');
  const first = await forRun(dir);
  assert.equal(first.seen.length, 1, 'the run began at its base: prepared');
  const plant = await runInSandbox(
    dir,
    `mkdir -p .agent && printf '*\\n' > .agent/.gitignore && printf '%s' '${agentConfig(marker)}' > .agent/config.json && echo planted`,
  );
  assert.match(plant.output, /planted/);
  assert.equal(await env.project.repo.git('-C', dir, 'status', '--porcelain', '--untracked-files=all'), '');
  const again = await forRun(dir);
  assert.equal(existsSync(marker), false, 'the host ran the agent’s setup');
  assert.equal(again.seen.length, 0);
  assert.match(again.report.warnings.join('\n'), /prepared .* is reused/);
});

test('a run moved to a new host never runs the setup its checkpoint added', async () => {
  const marker = await hostMarker('moved');
  // The agent's step on the first host: a checkpoint whose only change is a new config.
  const first = await runWorktree('first-host');
  await mkdir(path.join(first, '.agent'));
  await writeFile(path.join(first, '.agent/config.json'), agentConfig(marker));
  await env.project.repo.git('-C', first, 'add', '.agent/config.json');
  const tree = await env.project.repo.git('-C', first, 'write-tree');
  const checkpoint = await env.project.repo.git('-C', first, 'commit-tree', tree, '-p', 'main', '-m', 'checkpoint');
  // The new host: a fresh worktree restored to that checkpoint, as moveRun does.
  const moved = await runWorktree('new-host');
  await restoreWorktreeCheckpoint(moved, checkpoint);
  assert.equal(existsSync(path.join(moved, '.agent/config.json')), true);
  const { seen, report } = await forRun(moved);
  assert.equal(existsSync(marker), false, 'the host ran the agent’s setup');
  assert.equal(seen.length, 0);
  assert.match(report.warnings.join('\n'), /no environment was prepared/);
});
