/**
 * The harness's environment.setup step (agent-setup-step.ts) against the offline model
 * server: the model reads the repository read-only (a write in its shell fails), sees
 * the preflight's could-not-run output and what was tried, and its JSON answer is the
 * proposal; a first attempt takes an accepted proposal of the same repository and
 * lockfiles from the cache with no model request, and a lockfile change misses it.
 */
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { execFileSync } from 'node:child_process';
import type { WriteEnvironmentSetupInput } from '../../../src/contracts/agent-setup.js';
import { keepSetup } from '../../../src/activities/environment/agent-setup-cache.js';
import { writeEnvironmentSetup } from '../../../src/activities/environment/agent-setup-step.js';
import type { SessionScript } from '../../../src/dev/model-server/session-script.js';
import { makeRepo, recordingCtx, tempDir, withServer } from '../model/step-fixtures.js';

const P = 'Step environment.setup';
const PROPOSAL = { setup: ['sh scripts/vendor.sh'], test: 'sh t/run.sh' };

function input(worktreePath: string, overrides: Partial<WriteEnvironmentSetupInput> = {}): WriteEnvironmentSetupInput {
  return {
    workflowId: 'agent-issue-1',
    issue: 1,
    worktreePath,
    repoPath: worktreePath,
    artifactsDir: tempDir('env-step-artifacts-'),
    attempt: 1,
    model: { model: 'claude-sonnet-4-6', maxTokens: 4096, maxTurnsPerStep: 10 },
    budget: {},
    detected: [],
    testCommand: 'npm test --silent',
    failure: 'the environment cannot run `npm test --silent` on the base commit (exit 254: npm found no package.json)',
    tried: [],
    ...overrides,
  };
}

const script: SessionScript = {
  name: 'environment setup',
  rules: [
    {
      id: 'look',
      when: { promptContains: P, turn: 0 },
      respond: { toolUse: [{ name: 'bash', input: { command: 'touch wrote.txt; ls' } }] },
    },
    {
      id: 'answer',
      when: { promptContains: P, turn: 1, lastToolResultContains: 'sum.js' },
      respond: { json: { ...PROPOSAL, reason: 'a shell project' } },
    },
  ],
};

test('the model reads the repository read-only and answers the proposal; the prompt shows the failure and what was tried', async () => {
  const worktree = makeRepo();
  const env = { ISSUE_AGENT_STATE_DIR: tempDir('env-step-state-') };
  await withServer(script, async (server, deps) => {
    const tried = [{ setup: ['make deps'], test: 'make test', failure: 'make: *** No rule to make target' }];
    const out = await writeEnvironmentSetup({ ...deps, env }, input(worktree, { attempt: 2, tried }), recordingCtx());
    assert.deepEqual({ setup: out.setup, test: out.test }, PROPOSAL);
    assert.equal(out.cached, false);
    assert.equal(out.turns, 2);
    assert.ok(out.costUsd > 0);
    assert.equal(server.stats().requests, 2);
    assert.equal(existsSync(path.join(worktree, 'wrote.txt')), false, 'the worktree is read-only to the step');
  });
});

test('the prompt: the failure, the tried proposals and the attempt; no template placeholder left', async () => {
  const { environmentSetupPrompt } = await import('../../../src/activities/environment/agent-setup-step.js');
  const text = await environmentSetupPrompt(
    input('/nowhere', {
      attempt: 2,
      detected: ['node: package.json'],
      tried: [{ setup: ['make deps'], test: 'make test', failure: 'make: *** No rule to make target' }],
    }),
  );
  assert.match(text, /^# Step environment\.setup/);
  assert.match(text, /npm found no package\.json/);
  assert.match(text, /- node: package\.json/);
  assert.match(text, /1\. setup `make deps`; test `make test`\n {3}make: \*\*\* No rule/);
  assert.match(text, /attempt 2 of 3/);
  assert.doesNotMatch(text, /\{\{/);
});

test('a cached proposal of the same repository and lockfiles: no model request; a lockfile change misses it', async () => {
  const worktree = makeRepo();
  const env = { ISSUE_AGENT_STATE_DIR: tempDir('env-step-state-') };
  await keepSetup(worktree, { setup: ['./bootstrap'], test: 'prove -r t' }, env);
  await withServer(script, async (server, deps) => {
    const hit = await writeEnvironmentSetup({ ...deps, env }, input(worktree), recordingCtx());
    assert.deepEqual(hit, {
      setup: ['./bootstrap'],
      test: 'prove -r t',
      cached: true,
      usage: hit.usage,
      costUsd: 0,
      turns: 0,
    });
    assert.equal(server.stats().requests, 0);
    // A later attempt means the cached one failed: the model is asked.
    const tried = [{ setup: ['./bootstrap'], test: 'prove -r t', failure: 'prove: not found', cached: true }];
    const asked = await writeEnvironmentSetup({ ...deps, env }, input(worktree, { attempt: 2, tried }), recordingCtx());
    assert.equal(asked.cached, false);
    writeFileSync(path.join(worktree, 'cpanfile.lock'), 'DISTRIBUTIONS\n');
    execFileSync('git', ['add', '.'], { cwd: worktree });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'lock'], { cwd: worktree });
    const missed = await writeEnvironmentSetup({ ...deps, env }, input(worktree), recordingCtx());
    assert.equal(missed.cached, false, 'a new lockfile is a new key');
  });
});
