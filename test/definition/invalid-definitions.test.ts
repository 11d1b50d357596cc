/**
 * The bad-input corpus: every directory under test/fixtures/definitions/invalid/ is a
 * small valid definition with exactly one rule broken, and an expected.json naming the
 * problem {code, file, pointer} (plus `alsoCodes` when one break inherently implies
 * another). Each must fail to load with exactly that problem.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadAgentDefinition } from '../../src/definition/load/load-agent-definition.js';

interface Expected {
  readonly code: string;
  readonly file: string;
  readonly pointer: string;
  readonly alsoCodes?: readonly string[];
}

const corpus = fileURLToPath(new URL('../fixtures/definitions/invalid/', import.meta.url));
const cases = readdirSync(corpus, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

test('the corpus has at least 30 cases', () => {
  assert.ok(cases.length >= 30, `only ${cases.length} cases`);
});

for (const name of cases) {
  test(`invalid/${name}`, async () => {
    const dir = path.join(corpus, name);
    const expected = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Expected;
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
