/**
 * The bad-input corpus (invalid-definition-cases.ts): the valid upstream-vocabulary
 * agent with exactly one rule broken per case. Each must fail to load with exactly the
 * problem {code, file, pointer} the case names.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAgentDefinition } from '../../src/definition/load/load-agent-definition.js';
import { INVALID_DEFINITIONS } from './invalid-definition-cases.js';
import { materialise } from './mutate-definition.js';

const byName = new Map(INVALID_DEFINITIONS.map((c) => [c.name, c]));
const cases = [...byName.keys()].sort();

test('the corpus has at least 30 cases', () => {
  assert.ok(cases.length >= 30, `only ${cases.length} cases`);
});

for (const name of cases) {
  test(`invalid: ${name}`, async () => {
    const mutation = byName.get(name)!;
    const dir = materialise(mutation);
    const expected = mutation.expected;
    const result = await loadAgentDefinition(dir);
    assert.equal(result.ok, false, 'the definition must not load');
    if (result.ok) return;
    const found = result.problems.find(
      (p) => p.code === expected.code && p.file === expected.file && p.pointer === expected.pointer,
    );
    const listing = result.problems.map((p) => `${p.code} ${p.file}#${p.pointer}`).join('\n');
    assert.ok(found, `expected ${expected.code} at ${expected.file}#${expected.pointer}, got:\n${listing}`);
    assert.equal(found.severity, 'error');
    assert.ok(found.message.length > 0 && found.expected.length > 0, 'message and expected are filled in');
    const others = result.problems.filter((p) => p !== found).map((p) => p.code);
    assert.deepEqual(
      others.sort(),
      [...(expected.alsoCodes ?? [])].sort(),
      `one broken rule must give one problem; got:\n${listing}`,
    );
  });
}
