/**
 * Upstream constructs from small fixtures of our own (test/fixtures/agents), each run
 * end to end with the offline model server: a `section.*` prompt fragment offered to
 * another step, step `inputs` with a default, the label-only closure prompt chosen by
 * `defaultClosureAction`, parameter defaults; an ungated single closure step
 * (triager-like); a closure step run as a subprocess `runner` (merger-like), with
 * `${context.key}` from the parameters, the scrubbed environment and no model call.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionRule } from '../../src/dev/model-server/session-script.js';
import { runScenario } from '../helpers/run-scenario.js';
import { teardownEnv } from '../helpers/temporal-env.js';

after(teardownEnv);

const AGENTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'agents');

const rule = (id: string, promptContains: string[], json: Record<string, unknown>): SessionRule =>
  ({ id, when: { promptContains }, respond: { json } }) as SessionRule;

test('section fragment, step inputs with default, label-only closure prompt and parameter defaults', async () => {
  const session = {
    name: 'sectioned',
    rules: [
      // Matches only if the section text and the parameter default (depth 3) are in the prompt.
      rule('plan', ['## Project Apollo', 'Step initial.work: plan the work on caching (depth 3)'], {
        stepId: 'initial.work',
        summary: 'planned',
        next_action: { action: 'next' },
        analysis: { plan: 'add a cache' },
      }),
      // Matches only the label-only variant, with the handed-off plan and the input default.
      rule('close', ['(label-only variant)', 'Plan: add a cache; risk low'], {
        stepId: 'closure.done',
        summary: 'closed',
        next_action: { action: 'closing' },
      }),
    ],
  };
  const { result, model } = await runScenario({
    session,
    agentDir: join(AGENTS, 'sectioned'),
    input: { parameters: { topic: 'caching', projectTitle: 'Apollo' } },
  });
  assert.equal(result.outcome, 'success', result.reason);
  assert.deepEqual(
    result.steps.map((s) => s.stepId),
    ['initial.work', 'closure.done'],
  );
  assert.equal(model.stats().unmatched, 0);
});

test('an ungated single closure step (triager-like) answers once and completes through the boundary', async () => {
  const session = {
    name: 'ungated',
    rules: [
      rule('triage', ['Step triage: classify at most 9 issues'], {
        stepId: 'triage',
        summary: 'triaged 2 issues',
        next_action: { action: 'closing' },
      }),
    ],
  };
  const { result } = await runScenario({ session, agentDir: join(AGENTS, 'ungated-closure') });
  assert.equal(result.outcome, 'success', result.reason);
  assert.deepEqual(
    result.steps.map((s) => [s.stepId, s.intent]),
    [['triage', 'closing']],
  );
  assert.equal(result.boundary?.status, 'success');
});

/** The reviewer's verdict, given inline: the runner runs sandboxed, where /tmp is hidden. */
const verdict = (ok: boolean): string => JSON.stringify({ ok, by: 'reviewer' });

test('a runner closure step (merger-like) runs its subprocess with context values, no model call', async () => {
  process.env['ANTHROPIC_API_KEY'] = 'fake-test-value-not-a-key';
  const { result, model, handle } = await runScenario({
    session: { name: 'no model', rules: [] },
    agentDir: join(AGENTS, 'runner-closure'),
    input: { parameters: { prNumber: 42, verdict: verdict(true) } },
  });
  assert.equal(result.outcome, 'success', result.reason);
  assert.equal(model.stats().requests, 0, 'a runner step never calls the model');
  assert.deepEqual(
    result.steps.map((s) => [s.stepId, s.intent]),
    [['merge', 'closing']],
  );
  assert.match(result.reason ?? '', /exited 0/);
  // The runner runs in the agent's sandbox, where the user's git dir is read-only: it reports
  // through its stdout, which the runner activity returns.
  const history = await handle.fetchHistory();
  const results = (history.events ?? []).flatMap((e) =>
    (e.activityTaskCompletedEventAttributes?.result?.payloads ?? []).map((p) => Buffer.from(p.data ?? []).toString()),
  );
  const line = `pr 42 by reviewer key none cwd ${result.worktreePath ?? ''}`;
  assert.ok(
    results.some((r) => r.includes(line)),
    `no activity result holds ${line}`,
  );
});

test('a runner that exits non-zero is not a closing: the run stops at the cap with no boundary effect', async () => {
  const { result } = await runScenario({
    session: { name: 'no model', rules: [] },
    agentDir: join(AGENTS, 'runner-closure'),
    input: { parameters: { prNumber: 7, verdict: verdict(false) } },
  });
  assert.equal(result.outcome, 'failed');
  assert.equal(result.code, 'MAX_ITERATIONS');
  assert.equal(result.boundary, undefined);
  assert.match(result.steps[0]?.summary ?? '', /exited 1/);
});
