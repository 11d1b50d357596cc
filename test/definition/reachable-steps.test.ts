/**
 * The graph walk validate and start-run share (src/definition/reachable-steps.ts):
 * transitions from the entry, a dynamic `jump` reaching everything, and the closure
 * step a met criterion sends a stranded step to (closure-target.ts's fallback).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TransitionRule } from '../../src/contracts/definition.js';
import type { Intent, StepKind } from '../../src/contracts/intents.js';
import { reachableSteps, stepsARunReaches, type RoutedStep } from '../../src/definition/reachable-steps.js';

function step(stepKind: StepKind, to: Partial<Record<Intent, string | null>>, targetField?: string): RoutedStep {
  const transitions: Partial<Record<Intent, TransitionRule>> = {};
  for (const [intent, target] of Object.entries(to)) transitions[intent as Intent] = { target: target ?? null };
  const allowedIntents = Object.keys(to) as Intent[];
  return {
    stepKind,
    transitions,
    structuredGate: {
      allowedIntents: targetField === undefined ? allowedIntents : [...allowedIntents, 'jump'],
      intentField: 'next_action.action',
      intentSchemaRef: '#/properties/next_action/properties/action',
      handoffFields: [],
      failFast: true,
      ...(targetField === undefined ? {} : { targetField }),
    },
  } as RoutedStep;
}

const flow = new Map<string, RoutedStep>([
  ['a.start', step('work', { next: 'a.work' })],
  ['a.work', step('work', { next: 'a.work', handoff: 'a.close' })],
  ['a.close', step('closure', { closing: null })],
  ['b.start', step('work', { next: 'b.loop' })],
  ['b.loop', step('work', { repeat: 'b.loop' })],
  ['b.close', step('closure', { closing: null })],
]);

test('transitions from the entry, and nothing else', () => {
  assert.deepEqual([...reachableSteps(flow, 'a.start')].sort(), ['a.close', 'a.start', 'a.work']);
  assert.deepEqual([...reachableSteps(flow, 'b.start')].sort(), ['b.loop', 'b.start']);
});

test('a jump routed only by targetField reaches every step', () => {
  const jumping = new Map(flow).set('a.start', step('work', {}, 'next_step'));
  assert.equal(reachableSteps(jumping, 'a.start').size, flow.size);
});

test('a met criterion sends a step with no closure ahead to the first closure step (not under stepMachine)', () => {
  // b.loop can reach no closure: a criterion met there goes to a.close, the registry's first.
  assert.deepEqual([...stepsARunReaches(flow, 'b.start', true)].sort(), ['a.close', 'b.loop', 'b.start']);
  assert.deepEqual([...stepsARunReaches(flow, 'b.start', false)].sort(), ['b.loop', 'b.start']);
  // Every step of flow a has a closure ahead: nothing is added.
  assert.deepEqual([...stepsARunReaches(flow, 'a.start', true)].sort(), ['a.close', 'a.start', 'a.work']);
});
