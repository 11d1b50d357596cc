/**
 * One rule for which completion step guards a closure step (issue 27 item 5): the pure
 * function the run uses, and the load warnings that describe it, on the same registries.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { completionGuardFor } from '../../src/contracts/completion-guard.js';
import { loadAgentDefinition } from '../../src/definition/load/load-agent-definition.js';
import { copyFixture, editJson } from '../definition/temp-dirs.js';

test('a closure step is guarded by the completion step with its own id, whatever else is declared', () => {
  assert.deepEqual(completionGuardFor('closure.done', ['closure.other', 'closure.done']), {
    kind: 'own',
    completionStepId: 'closure.done',
  });
});

test('else by the only completion step declared (seed 003: one `complete.issue`)', () => {
  assert.deepEqual(completionGuardFor('closure.done', ['complete.issue']), {
    kind: 'only',
    completionStepId: 'complete.issue',
  });
});

test('with several declared and none its own, none: not the first declared', () => {
  assert.deepEqual(completionGuardFor('closure.done', ['closure.a', 'closure.b']), { kind: 'none' });
  assert.deepEqual(completionGuardFor('closure.done', []), { kind: 'none' });
});

async function warningsOf(edit: (registry: Record<string, any>) => void): Promise<string[]> {
  const dir = copyFixture('valid/upstream-vocabulary');
  editJson(dir, 'steps_registry.json', edit);
  const loaded = await loadAgentDefinition(dir);
  assert.ok(loaded.ok, JSON.stringify(loaded));
  return loaded.warnings
    .filter((w) => w.rule === 'completion-step-for-closure')
    .map((w) => `${w.code} ${w.pointer}: ${w.message}`);
}

/** Renames the fixture's one validation step `closure.done` to `key`. */
function rename(registry: Record<string, any>, key: string): void {
  const step = registry.validationSteps['closure.done'];
  delete registry.validationSteps['closure.done'];
  registry.validationSteps[key] = { ...step, stepId: key };
}

test('the load says the only completion step guards the closure step, as the run does', async () => {
  const warnings = await warningsOf((r) => rename(r, 'complete.issue'));
  assert.deepEqual(warnings, [
    "COMPLETION_STEP_UNMATCHED /validationSteps/complete.issue: completion step 'complete.issue' matches no closure step by id; as the only completion step it guards 'closure.done'",
  ]);
});

test('with several, an unmatched one never runs and the closure step without its own is unguarded', async () => {
  const warnings = await warningsOf((r) => {
    rename(r, 'closure.other');
    r.validationSteps['closure.third'] = { ...r.validationSteps['closure.other'], stepId: 'closure.third' };
  });
  assert.deepEqual(warnings, [
    "COMPLETION_STEP_UNMATCHED /validationSteps/closure.other: completion step 'closure.other' matches no closure step, so its conditions never run",
    "COMPLETION_STEP_UNMATCHED /validationSteps/closure.third: completion step 'closure.third' matches no closure step, so its conditions never run",
    "CLOSURE_STEP_UNGUARDED /steps/closure.done: closure step 'closure.done' has no completion step of its own and the registry declares 2, so its closing runs no completion conditions",
  ]);
});

test('a registry whose completion steps match their closure steps by id has no such warning', async () => {
  assert.deepEqual(await warningsOf(() => undefined), []);
});
