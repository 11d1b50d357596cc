import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkAgentFile } from '../../../src/definition/file-schemas/config-schema-check.js';

test('the agent file check (compiled lazily) still reports every problem of a bad agent.json', () => {
  const checked = checkAgentFile({ version: 3 }, 'agent.json');
  assert.equal(checked.ok, false);
  if (checked.ok) return;
  assert.ok(checked.problems.length >= 2, JSON.stringify(checked.problems));
  assert.ok(checked.problems.some((p) => p.pointer === '/name' && p.rule === 'schema:required'));
  assert.ok(checked.problems.some((p) => p.pointer === '/version' && p.rule === 'schema:type'));
  assert.ok(checked.problems.every((p) => p.code === 'AGENT_SCHEMA' && p.file === 'agent.json'));
});
