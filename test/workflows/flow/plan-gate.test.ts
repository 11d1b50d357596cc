/**
 * The plan gate's decision, pure: with a policy, the entry step's plan waits for approval
 * when it routes on; a plan step that answers `repeat` (routes to itself) is still working
 * on its plan and is not posted; an approved plan, a later step and a run without a policy
 * never wait.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planForApproval } from '../../../src/workflows/flow/flow-iteration.js';
import type { RunContext } from '../../../src/workflows/run/run-context.js';
import type { RunSession } from '../../../src/workflows/run/state/run-session.js';

const ctx = (planApproval: unknown): RunContext =>
  ({ input: { planApproval }, definition: { entryStep: 'initial.plan' } }) as unknown as RunContext;
const session = (planApproved?: boolean): RunSession => ({ state: { planApproved } }) as unknown as RunSession;
const plan = { stepId: 'initial.plan' };
const output = { summary: 'change src/a.ts', files: ['src/a.ts'], next_action: { action: 'next' } };

test('the entry step routing on waits for approval, with the plan and where it would go', () => {
  const outcome = planForApproval(ctx('always'), session(), plan, output, 'continuation.implement');
  assert.ok(outcome?.kind === 'plan');
  assert.equal(outcome.next, 'continuation.implement');
  assert.match(outcome.plan, /change src\/a\.ts/);
  assert.doesNotMatch(outcome.plan, /next_action/);
});

test('a plan step that repeats itself is not posted for approval', () => {
  assert.equal(planForApproval(ctx('always'), session(), plan, output, 'initial.plan'), undefined);
});

test('no policy, an approved plan, or a step past the plan: no wait', () => {
  assert.equal(planForApproval(ctx(undefined), session(), plan, output, 'continuation.implement'), undefined);
  assert.equal(planForApproval(ctx('never'), session(), plan, output, 'continuation.implement'), undefined);
  assert.equal(planForApproval(ctx('always'), session(true), plan, output, 'continuation.implement'), undefined);
  const later = { stepId: 'continuation.implement' };
  assert.equal(planForApproval(ctx('always'), session(), later, output, 'closure.review'), undefined);
});
