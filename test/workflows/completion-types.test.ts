/**
 * Completion types other than stepMachine, run end to end: the strategy decides when
 * the agent is done, and the completion conditions still run before the run ends.
 * Each test uses a temp copy of the intents fixture with another `runner.verdict`.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionRule } from '../../src/dev/model-server/session-script.js';
import { createLocalIssueStore } from '../../src/activities/issues/local-issue-store.js';
import { runScenario } from '../helpers/run-scenario.js';
import { teardownEnv } from '../helpers/temporal-env.js';

after(teardownEnv);

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'agents', 'intents');

async function agentWithVerdict(
  verdict: Record<string, unknown>,
  extraFiles: Record<string, string> = {},
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-'));
  await cp(FIXTURE, dir, { recursive: true });
  const agent = JSON.parse(await readFile(join(dir, 'agent.json'), 'utf8')) as { runner: Record<string, unknown> };
  agent.runner['verdict'] = verdict;
  await writeFile(join(dir, 'agent.json'), JSON.stringify(agent, null, 2));
  for (const [name, text] of Object.entries(extraFiles)) await writeFile(join(dir, name), text);
  return dir;
}

const repeatPlan: SessionRule = {
  id: 'plan-repeat',
  when: { promptContains: 'Step initial.plan' },
  respond: {
    json: {
      stepId: 'initial.plan',
      summary: 'still planning',
      next_action: { action: 'repeat' },
      analysis: { note: 'n' },
    },
  },
} as SessionRule;

test('iterationBudget (count:iteration): done after N iterations, conditions checked', async () => {
  const agentDir = await agentWithVerdict({ type: 'count:iteration', config: { maxIterations: 3 } });
  const { result } = await runScenario({ session: { name: 'budget', rules: [repeatPlan] }, agentDir });
  assert.equal(result.outcome, 'success', result.reason);
  assert.equal(result.iterations, 3);
  assert.equal(result.boundary?.status, 'success');
});

test('keywordSignal: done when the output carries the keyword', async () => {
  const agentDir = await agentWithVerdict({
    type: 'keywordSignal',
    config: { verdictKeyword: 'ALL-DONE-NOW', maxIterations: 6 },
  });
  const session = {
    name: 'keyword',
    rules: [
      {
        id: 'plan-2',
        when: { promptContains: 'Step initial.plan · Iteration 2' },
        respond: {
          json: {
            stepId: 'initial.plan',
            summary: 'ALL-DONE-NOW',
            next_action: { action: 'repeat' },
            analysis: { note: 'n' },
          },
        },
      } as SessionRule,
      repeatPlan,
    ],
  };
  const { result } = await runScenario({ session, agentDir });
  assert.equal(result.outcome, 'success', result.reason);
  assert.equal(result.iterations, 2);
});

test('externalState (poll:state): done once the issue is closed outside the run', async () => {
  const agentDir = await agentWithVerdict({ type: 'poll:state', config: { maxIterations: 10 } });
  const slowRepeat = { ...repeatPlan, respond: { ...repeatPlan.respond, delayMs: 300 } } as SessionRule;
  const { result } = await runScenario({
    session: { name: 'external', rules: [slowRepeat] },
    agentDir,
    during: async (_handle, model, run) => {
      while (model.stats().requests < 2) await new Promise((r) => setTimeout(r, 50));
      await createLocalIssueStore(run.repoPath).close(run.issue);
    },
  });
  assert.equal(result.outcome, 'success', result.reason);
  assert.ok(result.iterations >= 2 && result.iterations < 10, `ended early, after ${result.iterations} iterations`);
  assert.equal(result.boundary?.effects.find((e) => e.name === 'close-issue')?.status, 'already-done');
});

test('composite OR: the first child that is done ends the run; children see every iteration', async () => {
  const agentDir = await agentWithVerdict({
    type: 'meta:composite',
    config: {
      operator: 'or',
      conditions: [
        { type: 'count:iteration', config: { maxIterations: 2 } },
        { type: 'detect:keyword', config: { verdictKeyword: 'NEVER-SAID' } },
      ],
      maxIterations: 6,
    },
  });
  const { result } = await runScenario({ session: { name: 'composite', rules: [repeatPlan] }, agentDir });
  assert.equal(result.outcome, 'success', result.reason);
  assert.equal(result.iterations, 2);
});

test('custom: a handler module loaded by an activity decides', async () => {
  const handler =
    'export default function ({ iteration }) { return { done: iteration >= 2, reason: `custom saw iteration ${iteration}` }; }\n';
  const agentDir = await agentWithVerdict(
    { type: 'meta:custom', config: { handlerPath: 'done-at-two.mjs', maxIterations: 6 } },
    { 'done-at-two.mjs': handler },
  );
  const { result } = await runScenario({ session: { name: 'custom', rules: [repeatPlan] }, agentDir });
  assert.equal(result.outcome, 'success', result.reason);
  assert.equal(result.iterations, 2);
  assert.match(result.reason, /custom saw iteration 2/);
});
