/**
 * The default agent (the playbook) end to end on the real dev server: the demo session
 * goes understand → reproduce → implement → review (one escalate) → closure (worktree,
 * tools, validators, local boundary hook); a first closure that leaves the tree dirty
 * gets a retry prompt naming the uncommitted file; tests that never pass stop.
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
import { DEMO_PLAYBOOK } from './demo-playbook.js';

after(teardownEnv);

const demo = loadSessionScript(join(DEMO_DIR, 'session.json'));
const rule = (id: string): SessionRule => {
  const found = demo.rules.find((r) => r.id === id);
  assert.ok(found, `demo session has rule ${id}`);
  return found;
};

// The demo's rules also require each later step's prompt to carry the criteria, the
// reproduction command and the test command, so every rule asked once proves the handoffs.
test('the demo session follows the playbook: understand → reproduce → implement → review (one escalate) → closure', async () => {
  const { result, repoPath, model } = await runScenario({ session: demo });
  assert.equal(result.outcome, 'success', result.reason);
  assert.deepEqual(
    result.steps.map((s) => `${s.stepId}:${s.intent}`),
    DEMO_PLAYBOOK,
  );
  assert.equal(result.boundary?.status, 'success');
  const merged = readFileSync(join(repoPath, 'src', 'sum.js'), 'utf8');
  assert.equal(merged.includes('a + b'), true, 'the fix is merged into main');
  assert.equal(merged.includes('console.log'), false, 'the review removed the debug output');
  const log = execFileSync('git', ['log', '--format=%s', 'main'], { cwd: repoPath, encoding: 'utf8' }).split('\n');
  const reproduce = log.indexOf('Reproduce issue #1: sum() subtracts its operands');
  const fix = log.indexOf('Fix #1: sum() adds its operands');
  assert.ok(
    reproduce > fix && fix >= 0,
    `the reproduction is committed on its own, before the fix: ${log.join(' | ')}`,
  );
  assert.match(readFileSync(join(repoPath, '.agent', 'issues', '1.md'), 'utf8'), /state: closed/);
  assert.equal(existsSync(result.worktreePath ?? '/nonexistent'), false, 'worktree removed');
  const understood = result.handoff['initial.understand'];
  assert.deepEqual(understood?.['test_command'], 'npm test --silent', 'StepContext kept the test command');
  assert.equal(Array.isArray(understood?.['acceptance_criteria']), true, 'StepContext kept the acceptance criteria');
  assert.equal(result.handoff['continuation.reproduce']?.['command'], 'node --test test/sum.test.js');
  assert.deepEqual(result.handoff['verification.review']?.['problems'], [], 'the last review found no problem');
  for (const [id, count] of Object.entries(model.stats().byRule)) assert.equal(count, 1, `rule ${id} asked once`);
  assert.equal(model.stats().requests, 17);
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
      ...['understand-explore', 'understand-answer', 'reproduce-test', 'reproduce-run-commit', 'reproduce-answer'].map(
        rule,
      ),
      rule('work-edit'),
      {
        id: 'work-answer-uncommitted',
        when: { promptContains: 'Step continuation.implement', turn: 1 },
        respond: rule('work-answer').respond,
      },
      {
        id: 'review-pass-any',
        when: { promptContains: 'Step verification.review' },
        respond: rule('review-pass').respond,
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
    ['next', 'next', 'next', 'next', 'closing', 'closing'],
  );
  const log = execFileSync('git', ['log', '--oneline', 'main'], { cwd: repoPath, encoding: 'utf8' });
  assert.match(log, /Fix sum \(issue #1\)/);
});

test('tests that never pass stop after maxAttempts with a verdict naming the failing test', async () => {
  const session = {
    name: 'never passes',
    rules: [
      ...['understand-explore', 'understand-answer', 'reproduce-test', 'reproduce-run-commit', 'reproduce-answer'].map(
        rule,
      ),
      {
        id: 'work-answer-nothing',
        when: { promptContains: 'Step continuation.implement' },
        respond: rule('work-answer').respond,
      },
      {
        id: 'review-pass-any',
        when: { promptContains: 'Step verification.review' },
        respond: rule('review-pass').respond,
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
