import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PipelineTransition } from '../../../src/contracts/pipeline.js';
import { bareLabel, resolvePhase } from '../../../src/workflows/pipeline/phase-resolution.js';
import { labelPlan, outcomeOf, shouldClose, targetPhase } from '../../../src/workflows/pipeline/transition.js';
import { limitReached, trailingSamePhase } from '../../../src/workflows/pipeline/cycle-limits.js';
import { pipelineDefinition, transformer, validator } from './pipeline-definitions.js';

const def = pipelineDefinition();
const agent = (id: string) => def.agents.find((a) => a.id === id)!;

test('resolvePhase: blocking wins over terminal, terminal over actionable, whatever the label order', () => {
  assert.deepEqual(resolvePhase(['kind:consider', 'done', 'need clearance'], def), {
    kind: 'blocking',
    phase: 'blocked',
  });
  assert.deepEqual(resolvePhase(['kind:consider', 'finished'], def), { kind: 'terminal', phase: 'done' });
  assert.equal(resolvePhase(['bug', 'other'], def).kind, 'none');
});

test('resolvePhase: the actionable phase with the lowest priority, ties by phase id', () => {
  const r = resolvePhase(['kind:impl', 'kind:detail', 'bug'], def);
  assert.equal(r.kind, 'actionable');
  assert.equal(r.kind === 'actionable' && r.phase, 'detail');
  assert.equal(r.kind === 'actionable' && r.agent.id, 'detailer');
  const tied = pipelineDefinition({
    phases: [
      { id: 'zeta', type: 'actionable', priority: 1, agent: 'considerer' },
      { id: 'alpha', type: 'actionable', priority: 1, agent: 'detailer' },
    ],
    labelMapping: [
      ['z', 'zeta'],
      ['a', 'alpha'],
    ],
  });
  const t = resolvePhase(['z', 'a'], tied);
  assert.equal(t.kind === 'actionable' && t.phase, 'alpha');
});

test('resolvePhase with a labelPrefix: only prefixed labels count', () => {
  const prefixed = pipelineDefinition({ labelPrefix: 'docs' });
  assert.equal(resolvePhase(['kind:detail'], prefixed).kind, 'none');
  const r = resolvePhase(['kind:detail', 'docs:kind:impl'], prefixed);
  assert.equal(r.kind === 'actionable' && r.phase, 'implement');
  assert.equal(bareLabel('docs:done', 'docs'), 'done');
  assert.equal(bareLabel('done', 'docs'), undefined);
  assert.equal(bareLabel('done', undefined), 'done');
});

test('outcomeOf: transformer success/failed, its verdict only with fallbackPhases; validator verdict', () => {
  assert.deepEqual(outcomeOf(agent('implementer'), { outcome: 'success', verdict: 'x' }), {
    ok: true,
    outcome: 'success',
  });
  assert.deepEqual(outcomeOf(agent('implementer'), { outcome: 'failed' }), { ok: true, outcome: 'failed' });
  assert.deepEqual(outcomeOf(agent('considerer'), { outcome: 'success', verdict: 'handoff-detail' }), {
    ok: true,
    outcome: 'handoff-detail',
  });
  assert.deepEqual(outcomeOf(agent('reviewer'), { outcome: 'success', verdict: 'rejected' }), {
    ok: true,
    outcome: 'rejected',
  });
  assert.deepEqual(outcomeOf(agent('reviewer'), { outcome: 'failed' }), { ok: true, outcome: 'failed' });
  const missing = outcomeOf(agent('reviewer'), { outcome: 'success' });
  assert.equal(missing.ok, false);
  assert.match(!missing.ok ? missing.reason : '', /validator reviewer completed without a verdict.*approved, rejected/);
});

test('targetPhase: outputPhase, fallbackPhases, outputPhases, fallbackPhase, and a clear failure', () => {
  assert.deepEqual(targetPhase(agent('considerer'), 'success'), { ok: true, phase: 'done', fallback: false });
  assert.deepEqual(targetPhase(agent('considerer'), 'handoff-detail'), { ok: true, phase: 'detail', fallback: true });
  assert.deepEqual(targetPhase(agent('considerer'), 'failed'), { ok: true, phase: 'blocked', fallback: true });
  assert.deepEqual(targetPhase(agent('reviewer'), 'rejected'), { ok: true, phase: 'implement', fallback: false });
  const none = targetPhase(agent('reviewer'), 'maybe');
  assert.equal(none.ok, false);
  assert.match(
    !none.ok ? none.reason : '',
    /reviewer \(validator\) has no phase for outcome "maybe".*no fallbackPhase/,
  );
  const noFallback = targetPhase(transformer('t', 'done', { fallbackPhase: undefined }), 'failed');
  assert.equal(noFallback.ok, false);
  // outputPhases keys are data, not prototype properties.
  assert.equal(targetPhase(validator('v', {}), 'toString').ok, false);
});

test('labelPlan: removes the pipeline labels present, adds the first label mapping to the target', () => {
  assert.deepEqual(labelPlan(['bug', 'kind:consider', 'P1'], 'detail', def), {
    add: ['kind:detail'],
    remove: ['kind:consider'],
  });
  // Terminal: the first mapping key (done, not finished); the prioritizer labels go too.
  assert.deepEqual(labelPlan(['kind:review', 'P1', 'bug'], 'done', def), {
    add: ['done'],
    remove: ['kind:review', 'P1'],
  });
  // A label already present and wanted is kept (neither removed nor re-added as a toggle).
  assert.deepEqual(labelPlan(['kind:impl', 'kind:review'], 'implement', def), {
    add: ['kind:impl'],
    remove: ['kind:review'],
  });
});

test('labelPlan with a labelPrefix: matches and adds prefixed labels only', () => {
  const prefixed = pipelineDefinition({ labelPrefix: 'docs' });
  assert.deepEqual(labelPlan(['docs:kind:consider', 'kind:consider', 'docs:P2', 'P2'], 'done', prefixed), {
    add: ['docs:done'],
    remove: ['docs:kind:consider', 'docs:P2'],
  });
});

test('shouldClose: terminal target, closeOnComplete, closeCondition equal to the outcome', () => {
  const reviewer = agent('reviewer');
  assert.equal(shouldClose(reviewer, 'done', 'approved', def), true);
  assert.equal(shouldClose(reviewer, 'done', 'other', def), false, 'closeCondition not met');
  assert.equal(shouldClose(reviewer, 'implement', 'approved', def), false, 'not terminal');
  assert.equal(shouldClose(agent('considerer'), 'done', 'success', def), false, 'no closeOnComplete');
  assert.equal(shouldClose(transformer('t', 'done', { closeOnComplete: true }), 'done', 'success', def), true);
});

const hop = (cycle: number, to: string): PipelineTransition => ({
  cycle,
  from: 'x',
  to,
  agent: 'a',
  outcome: 'o',
  runId: 'r',
});

test('limits: maxConsecutivePhases first (0 = off), then maxCycles', () => {
  const rules = { maxCycles: 4, cycleDelayMs: 0, maxConsecutivePhases: 2 };
  assert.equal(limitReached([], rules), undefined);
  assert.equal(limitReached([hop(1, 'impl'), hop(2, 'review')], rules), undefined);
  assert.equal(trailingSamePhase([hop(1, 'review'), hop(2, 'impl'), hop(3, 'impl')]), 2);
  assert.equal(
    limitReached([hop(1, 'review'), hop(2, 'impl'), hop(3, 'impl')], rules)?.kind,
    'phase_repetition_exceeded',
  );
  const four = [hop(1, 'a'), hop(2, 'b'), hop(3, 'a'), hop(4, 'b')];
  assert.equal(limitReached(four, rules)?.kind, 'cycle_exceeded');
  assert.match(limitReached(four, rules)?.reason ?? '', /maxCycles \(4/);
  assert.equal(limitReached([hop(1, 'a'), hop(2, 'a')], { ...rules, maxConsecutivePhases: 0 }), undefined);
});
