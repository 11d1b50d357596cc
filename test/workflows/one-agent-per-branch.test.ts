/**
 * 1 issue = 1 branch = 1 worktree = 1 agent across agents, end to end on the real dev
 * server: the default agent works issue 1 and delivers as `branch` (the branch stays,
 * its owner recorded); a run of another agent on the same issue of the same repository
 * then fails at prepareWorkspace with WORKTREE_OWNED, and neither the branch nor the
 * worktree list changes; the owning agent itself may still come back to its branch.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_DIR } from '../../src/dev/sample-repo.js';
import { loadSessionScript } from '../../src/dev/model-server/session-script.js';
import { PROJECT_ROOT } from '../../src/host/project-root.js';
import { runScenario } from '../helpers/run-scenario.js';
import { teardownEnv } from '../helpers/temporal-env.js';

after(teardownEnv);

const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

test('a second agent on the same issue never gets the first agent’s branch or worktree', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'one-agent-'));
  try {
    const other = join(dir, 'other-agent');
    for (const part of ['registry', 'prompts'])
      await cp(join(PROJECT_ROOT, part), join(other, part), { recursive: true });
    const agentFile = join(other, 'registry', 'agent.json');
    const agent = JSON.parse(await readFile(agentFile, 'utf8')) as Record<string, unknown>;
    await writeFile(agentFile, JSON.stringify({ ...agent, name: 'other-agent' }, null, 2));
    const registryFile = join(other, 'registry', 'steps_registry.json');
    const registry = JSON.parse(await readFile(registryFile, 'utf8')) as Record<string, unknown>;
    await writeFile(registryFile, JSON.stringify({ ...registry, agentId: 'other-agent' }, null, 2));

    const demo = loadSessionScript(join(DEMO_DIR, 'session.json'));
    const first = await runScenario({ session: demo, input: { delivery: 'branch' } });
    assert.equal(first.result.outcome, 'success', first.result.reason);
    const repoPath = first.repoPath;
    assert.equal(git(repoPath, 'config', '--get', 'branch.agent/issue-1.agentOwner'), 'issue-agent');
    const head = git(repoPath, 'rev-parse', 'agent/issue-1');
    const worktrees = git(repoPath, 'worktree', 'list', '--porcelain');

    const second = await runScenario({ session: demo, agentDir: other, input: { repoPath } });
    assert.equal(second.result.outcome, 'failed');
    assert.equal(second.result.code, 'WORKTREE_OWNED', second.result.reason);
    assert.match(second.result.reason, /belong to agent "issue-agent"; agent "other-agent" may not work them/);
    assert.equal(second.model.stats().requests, 0, 'no model request was made');
    assert.equal(git(repoPath, 'rev-parse', 'agent/issue-1'), head, 'the branch did not move');
    assert.equal(git(repoPath, 'worktree', 'list', '--porcelain'), worktrees, 'no worktree was added');
    assert.equal(git(repoPath, 'config', '--get', 'branch.agent/issue-1.agentOwner'), 'issue-agent');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
