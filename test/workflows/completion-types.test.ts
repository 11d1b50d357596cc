/**
 * Completion per seed 000, one real run per completion type (offline model server):
 * a type's criterion only lets the agent complete. Met at a work step, it sends the
 * flow to the closure step; the boundary hook fires only after that closure step's
 * validated `closing`. A run that never gets there stops at the cap with no boundary.
 * Each test uses a temp copy of the intents fixture with another `runner.verdict`.
 * externalState, whose verdict comes before any delivery, has its own file:
 * completion/external-state-verdict.test.ts.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunResult } from '../../src/contracts/run.js';
import type { SessionRule } from '../../src/dev/model-server/session-script.js';
import { runScenario } from '../helpers/run-scenario.js';
import { teardownEnv } from '../helpers/temporal-env.js';

after(teardownEnv);

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'agents', 'intents');

interface AgentEdits {
  readonly github?: Record<string, unknown>;
  readonly files?: Record<string, string>;
  /** Extra properties every step's output may carry (the fixture's schemas are closed). */
  readonly outputProperties?: Record<string, unknown>;
}

async function agentWithVerdict(verdict: Record<string, unknown>, edits: AgentEdits = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-'));
  await cp(FIXTURE, dir, { recursive: true });
  const agent = JSON.parse(await readFile(join(dir, 'agent.json'), 'utf8')) as { runner: Record<string, unknown> };
  agent.runner['verdict'] = verdict;
  if (edits.github) agent.runner['integrations'] = { github: edits.github };
  await writeFile(join(dir, 'agent.json'), JSON.stringify(agent, null, 2));
  if (edits.outputProperties) {
    const path = join(dir, 'schemas', 'flow.schema.json');
    const schema = JSON.parse(await readFile(path, 'utf8')) as {
      $defs: { base: { properties: Record<string, unknown> } };
    };
    Object.assign(schema.$defs.base.properties, edits.outputProperties);
    await writeFile(path, JSON.stringify(schema, null, 2));
  }
  for (const [name, text] of Object.entries(edits.files ?? {})) await writeFile(join(dir, name), text);
  return dir;
}

const answer = (id: string, stepId: string, when: string, json: Record<string, unknown>): SessionRule =>
  ({ id, when: { promptContains: when }, respond: { json: { stepId, summary: id, ...json } } }) as SessionRule;

/** The work step never leaves on its own: only a criterion can send the flow to the closure. */
const repeatPlan = answer('plan-repeat', 'initial.plan', 'Step initial.plan', {
  next_action: { action: 'repeat' },
  analysis: { note: 'n' },
});
const closing = answer('close', 'closure.done', 'Step closure.done', { next_action: { action: 'closing' } });

/** Where each iteration ran, and the boundary: fired once, after the closure step. */
function trail(result: RunResult): string[] {
  return result.steps.map((s) => `${s.iteration}:${s.stepId}:${s.intent ?? ''}`);
}

function assertDeliveredAtClosure(result: RunResult, iterations: number): void {
  assert.equal(result.outcome, 'success', result.reason);
  assert.equal(result.iterations, iterations, trail(result).join(' '));
  const last = result.steps.at(-1);
  assert.equal(last?.stepId, 'closure.done');
  assert.equal(last?.intent, 'closing');
  assert.ok(result.boundary, 'the boundary hook ran');
  // Every work step before it stayed a work step: no boundary from a work step.
  assert.ok(result.steps.slice(0, -1).every((s) => s.stepKind !== 'closure'));
}

test('stepMachine (detect:graph): the boundary fires after the closure step validated closing', async () => {
  const agentDir = await agentWithVerdict({ type: 'detect:graph', config: { maxIterations: 6 } });
  const rules = [
    answer('plan', 'initial.plan', 'Step initial.plan', { next_action: { action: 'next' }, analysis: { note: 'n' } }),
    answer('build', 'continuation.build', 'Step continuation.build', { next_action: { action: 'handoff' } }),
    closing,
  ];
  const { result } = await runScenario({ session: { name: 'graph', rules }, agentDir });
  assertDeliveredAtClosure(result, 3);
  assert.equal(result.boundary?.status, 'success');
});

test('iterationBudget (count:iteration): the budget sends the flow to the closure step; delivered there', async () => {
  const agentDir = await agentWithVerdict({ type: 'count:iteration', config: { maxIterations: 3, closureGrace: 1 } });
  const { result } = await runScenario({ session: { name: 'budget', rules: [repeatPlan, closing] }, agentDir });
  // Iterations 1-3 work; the 3rd meets the budget; the closure step runs past the cap (closureGrace 1).
  assertDeliveredAtClosure(result, 4);
  assert.deepEqual(trail(result).slice(0, 3), [
    '1:initial.plan:repeat',
    '2:initial.plan:repeat',
    '3:initial.plan:repeat',
  ]);
  assert.equal(result.boundary?.status, 'success');
});

test('keywordSignal: the keyword at a work step leads to the closure step, not to delivery', async () => {
  const agentDir = await agentWithVerdict({
    type: 'keywordSignal',
    config: { verdictKeyword: 'ALL-DONE-NOW', maxIterations: 6 },
  });
  const keyword = answer('plan-2', 'initial.plan', 'Step initial.plan · Iteration 2', {
    summary: 'ALL-DONE-NOW',
    next_action: { action: 'repeat' },
    analysis: { note: 'n' },
  });
  const { result } = await runScenario({
    session: { name: 'keyword', rules: [keyword, repeatPlan, closing] },
    agentDir,
  });
  assertDeliveredAtClosure(result, 3);
});

test('structuredSignal (detect:structured): the signal at a work step leads to the closure step', async () => {
  const agentDir = await agentWithVerdict(
    { type: 'detect:structured', config: { signalType: 'ready', requiredFields: { 'analysis.note': 'go' } } },
    { outputProperties: { signal: { type: 'string' } } },
  );
  const signal = answer('plan-2', 'initial.plan', 'Step initial.plan · Iteration 2', {
    signal: 'ready',
    next_action: { action: 'repeat' },
    analysis: { note: 'go' },
  });
  const { result } = await runScenario({
    session: { name: 'structured', rules: [signal, repeatPlan, closing] },
    agentDir,
  });
  assertDeliveredAtClosure(result, 3);
});

test('checkBudget (count:check): after maxChecks criterion checks the closure step delivers', async () => {
  const agentDir = await agentWithVerdict({ type: 'count:check', config: { maxChecks: 2, maxIterations: 6 } });
  const { result } = await runScenario({ session: { name: 'checks', rules: [repeatPlan, closing] }, agentDir });
  assertDeliveredAtClosure(result, 3);
});

test('composite OR: the first child met (count:iteration) leads to the closure step; children see every iteration', async () => {
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
  const { result } = await runScenario({ session: { name: 'composite', rules: [repeatPlan, closing] }, agentDir });
  assertDeliveredAtClosure(result, 3);
  assert.match(result.reason, /1 of 2 conditions are met/);
});

test('custom (meta:custom): the handler allows completion; the closure step delivers', async () => {
  const handler =
    'export default function ({ iteration }) { return { done: iteration >= 2, reason: `custom saw iteration ${iteration}` }; }\n';
  const agentDir = await agentWithVerdict(
    { type: 'meta:custom', config: { handlerPath: 'done-at-two.mjs', maxIterations: 6 } },
    { files: { 'done-at-two.mjs': handler } },
  );
  const { result } = await runScenario({ session: { name: 'custom', rules: [repeatPlan, closing] }, agentDir });
  assertDeliveredAtClosure(result, 3);
  assert.match(result.reason, /custom saw iteration 2/);
});

test('a met criterion never delivers by itself: without a closing the run stops at the cap, no boundary', async () => {
  const agentDir = await agentWithVerdict({
    type: 'keywordSignal',
    config: { verdictKeyword: 'ALL-DONE-NOW', maxIterations: 3 },
  });
  const keyword = answer('plan-keyword', 'initial.plan', 'Step initial.plan', {
    summary: 'ALL-DONE-NOW',
    next_action: { action: 'repeat' },
    analysis: { note: 'n' },
  });
  const stubborn = answer('close-repeat', 'closure.done', 'Step closure.done', { next_action: { action: 'repeat' } });
  const build = answer('build', 'continuation.build', 'Step continuation.build', { next_action: { action: 'repeat' } });
  const { result } = await runScenario({ session: { name: 'stopped', rules: [keyword, stubborn, build] }, agentDir });
  assert.equal(result.outcome, 'failed');
  assert.equal(result.code, 'MAX_ITERATIONS');
  assert.match(result.reason, /^stopped: /);
  assert.equal(result.boundary, undefined);
});

test('the cap is exact without closureGrace: a budget met at the cap never reaches its closure step', async () => {
  const agentDir = await agentWithVerdict({ type: 'count:iteration', config: { maxIterations: 3 } });
  const { result } = await runScenario({ session: { name: 'exact-cap', rules: [repeatPlan, closing] }, agentDir });
  assert.equal(result.outcome, 'failed');
  assert.equal(result.code, 'MAX_ITERATIONS');
  assert.equal(result.iterations, 3, trail(result).join(' '));
  assert.equal(result.boundary, undefined);
});

test('closureGrace is the only grace: a run still at a closure step past cap + grace stops', async () => {
  const agentDir = await agentWithVerdict({ type: 'count:iteration', config: { maxIterations: 2, closureGrace: 1 } });
  const stubborn = answer('close-repeat', 'closure.done', 'Step closure.done', { next_action: { action: 'repeat' } });
  const build = answer('build', 'continuation.build', 'Step continuation.build', { next_action: { action: 'repeat' } });
  const { result } = await runScenario({
    session: { name: 'grace-ends', rules: [repeatPlan, stubborn, build] },
    agentDir,
  });
  // 1-2 plan (budget met at 2), 3 closure (grace 1) answers repeat: the cap + grace is reached.
  assert.equal(result.code, 'MAX_ITERATIONS', result.reason);
  assert.equal(result.iterations, 3, trail(result).join(' '));
});

test('a closing before the criterion is met does not deliver: the flow goes on until it is', async () => {
  const agentDir = await agentWithVerdict({ type: 'count:iteration', config: { maxIterations: 4, closureGrace: 1 } });
  const rules = [
    answer('plan', 'initial.plan', 'Step initial.plan', { next_action: { action: 'next' }, analysis: { note: 'n' } }),
    answer('build', 'continuation.build', 'Step continuation.build', { next_action: { action: 'handoff' } }),
    closing,
  ];
  const { result } = await runScenario({ session: { name: 'early-closing', rules }, agentDir });
  // 1 plan, 2 build, 3 closing (3 < 4: not yet; back to build), 4 build (budget met), 5 closing.
  assert.equal(result.outcome, 'success', result.reason);
  assert.deepEqual(trail(result), [
    '1:initial.plan:next',
    '2:continuation.build:handoff',
    '3:closure.done:closing',
    '4:continuation.build:handoff',
    '5:closure.done:closing',
  ]);
});
