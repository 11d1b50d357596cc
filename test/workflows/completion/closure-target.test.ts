import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentDefinition, StepDefinition, VerdictSpec } from '../../../src/contracts/definition.js';
import { closureStepFor } from '../../../src/workflows/completion/closure-target.js';
import { pollSettings } from '../../../src/workflows/completion/closing-verdict.js';

const step = (stepId: string, stepKind: StepDefinition['stepKind'], transitions: StepDefinition['transitions']) =>
  ({ stepId, stepKind, transitions }) as StepDefinition;

const definition = {
  steps: {
    'closure.far': step('closure.far', 'closure', {}),
    'initial.a': step('initial.a', 'work', { next: { target: 'continuation.b' } }),
    'continuation.b': step('continuation.b', 'work', {
      next: { condition: 'route', targets: { near: 'closure.near', default: 'continuation.b' } },
    }),
    'closure.near': step('closure.near', 'closure', {}),
    'orphan.work': step('orphan.work', 'work', { repeat: { target: 'orphan.work' } }),
  },
} as unknown as AgentDefinition;

test('closureStepFor: the nearest closure reachable through transitions (conditional targets too)', () => {
  assert.equal(closureStepFor(definition, 'initial.a'), 'closure.near');
  assert.equal(closureStepFor(definition, 'continuation.b'), 'closure.near');
});

test('closureStepFor: without a reachable closure, the first closure of the registry', () => {
  assert.equal(closureStepFor(definition, 'orphan.work'), 'closure.far');
});

test('pollSettings: defaults, own config, then an externalState child of a composite', () => {
  const spec = (config: VerdictSpec['config'], children?: VerdictSpec[]): VerdictSpec =>
    ({ type: children ? 'composite' : 'externalState', config, ...(children ? { children } : {}) }) as VerdictSpec;
  assert.deepEqual(pollSettings(spec({})), { intervalMs: 60_000, maxPolls: 10 });
  assert.deepEqual(pollSettings(spec({ pollIntervalMs: 5, maxPolls: 2 })), { intervalMs: 5, maxPolls: 2 });
  const child = { type: 'externalState', config: { pollIntervalMs: 7 } } as VerdictSpec;
  assert.deepEqual(pollSettings(spec({ maxPolls: 3 }, [child])), { intervalMs: 7, maxPolls: 3 });
});
