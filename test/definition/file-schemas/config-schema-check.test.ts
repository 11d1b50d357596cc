import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkAgentFile, lazySchema } from '../../../src/definition/file-schemas/config-schema-check.js';

test('a lazy schema compiles on its first use, once, and rejects what does not match', () => {
  const get = lazySchema<{ name: string }>({
    type: 'object',
    properties: { name: { type: 'string' } },
    required: ['name'],
    additionalProperties: false,
  });
  const validate = get();
  assert.equal(get(), validate, 'compiled once, then reused');
  assert.equal(validate({ name: 'x' }), true);
  assert.equal(validate({ name: 1 }), false);
  assert.equal(validate.errors?.[0]?.keyword, 'type');
});

test('an invalid schema fails at its first use, not at import', () => {
  const get = lazySchema({ type: 'object', notAKeyword: true });
  assert.throws(() => get(), /unknown keyword/);
});

test('the agent file check (compiled lazily) still reports every problem of a bad agent.json', () => {
  const checked = checkAgentFile({ version: 3 }, 'agent.json');
  assert.equal(checked.ok, false);
  if (checked.ok) return;
  assert.ok(checked.problems.length >= 2, JSON.stringify(checked.problems));
  assert.ok(checked.problems.some((p) => p.pointer === '/name' && p.rule === 'schema:required'));
  assert.ok(checked.problems.some((p) => p.pointer === '/version' && p.rule === 'schema:type'));
  assert.ok(checked.problems.every((p) => p.code === 'AGENT_SCHEMA' && p.file === 'agent.json'));
});
