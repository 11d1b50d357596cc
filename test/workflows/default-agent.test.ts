/**
 * The default agent end to end on the real dev server: the demo session completes
 * (worktree, tools, closing, validators, local boundary hook), and a first closure that
 * leaves the tree dirty gets a retry prompt naming the uncommitted file.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { DEMO_DIR } from '../../src/dev/sample-repo.js';
import { loadSessionScript, type SessionRule } from '../../src/dev/model-server/session-script.js';
import { runScenario } from '../helpers/run-scenario.js';
import { teardownEnv } from '../helpers/temporal-env.js';

after(teardownEnv);

const demo = loadSessionScript(join(DEMO_DIR, 'session.json'));
const rule = (id: string): SessionRule => {
  const found = demo.rules.find((r) => r.id === id);
  assert.ok(found, `demo session has rule ${id}`);
  return found;
};

test('the demo session completes: merged, issue closed, worktree removed, each model turn asked once', async () => {
  const { result, repoPath, model } = await runScenario({ session: demo });
  assert.equal(result.outcome, 'success', result.reason);
  assert.deepEqual(
    result.steps.map((s) => `${s.stepId}:${s.intent}`),
    ['initial.issue:next', 'continuation.issue:handoff', 'closure.issue:closing'],
  );
  assert.equal(result.boundary?.status, 'success');
  assert.equal(
    readFileSync(join(repoPath, 'src', 'sum.js'), 'utf8').includes('a + b'),
    true,
    'the fix is merged into main',
  );
  assert.match(readFileSync(join(repoPath, '.agent', 'issues', '1.md'), 'utf8'), /state: closed/);
  assert.equal(existsSync(result.worktreePath ?? '/nonexistent'), false, 'worktree removed');
  assert.equal(result.handoff['initial.issue']?.['plan'] !== undefined, true, 'StepContext kept the plan');
  for (const [id, count] of Object.entries(model.stats().byRule)) assert.equal(count, 1, `rule ${id} asked once`);
  assert.equal(model.stats().requests, 7);
});

test('a dirty first closure gets a retry prompt naming the uncommitted file, then completes', async () => {
  const session = {
    name: 'dirty closure',
    rules: [
      {
        id: 'retry-commit',
        when: { promptContains: ['completion check failed: uncommitted changes', 'src/sum.js'], turn: 0 },
        respond: {
          toolUse: [{ name: 'bash', input: { command: "git add -A && git commit -q -m 'Fix sum (issue #1)'" } }],
        },
      },
      {
        id: 'retry-closing',
        when: { promptContains: 'completion check failed: uncommitted changes', turn: 1 },
        respond: { json: { ...(rule('closure-answer').respond.json as object), summary: 'Committed the fix.' } },
      },
      rule('initial-explore'),
      rule('initial-answer'),
      rule('work-edit'),
      {
        id: 'work-answer-uncommitted',
        when: { promptContains: 'Step continuation.issue', turn: 1 },
        respond: rule('work-answer').respond,
      },
      {
        id: 'closure-closing-dirty',
        when: { promptContains: 'Step closure.issue', turn: 0 },
        respond: rule('closure-answer').respond,
      },
    ],
  };
  const { result, repoPath, model } = await runScenario({ session });
  assert.equal(result.outcome, 'success', result.reason);
  assert.equal(model.stats().byRule['retry-commit'], 1, 'the retry prompt reached the model');
  assert.deepEqual(
    result.steps.map((s) => s.intent),
    ['next', 'handoff', 'closing', 'closing'],
  );
  const log = execFileSync('git', ['log', '--oneline', 'main'], { cwd: repoPath, encoding: 'utf8' });
  assert.match(log, /Fix sum \(issue #1\)/);
});

test('tests that never pass stop after maxAttempts with a verdict naming the failing test', async () => {
  const session = {
    name: 'never passes',
    rules: [
      rule('initial-explore'),
      rule('initial-answer'),
      {
        id: 'work-answer-nothing',
        when: { promptContains: 'Step continuation.issue' },
        respond: rule('work-answer').respond,
      },
      { id: 'closing-always', when: { promptContains: 'Step closure.issue' }, respond: rule('closure-answer').respond },
    ],
  };
  const { result, model } = await runScenario({ session });
  assert.equal(result.outcome, 'failed');
  assert.equal(result.code, 'VALIDATION_ABORTED');
  assert.match(result.reason, /3 attempt/);
  assert.match(result.reason, /tests/);
  assert.match(result.reason, /sum adds two numbers/, 'the verdict names the failing test');
  assert.equal(model.stats().byRule['closing-always'], 3, 'each retry prompt reached the model');
});
