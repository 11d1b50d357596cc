/** The `ask` tool's input check: a non-blank question, optionally a short list of non-blank choices. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ASK_TOOL, checkAsk } from '../../../src/activities/tools/ask-tool.js';
import { executeTool } from '../../../src/activities/tools/tool-dispatcher.js';
import { toolContext } from './tool-fixtures.js';

test('a question, trimmed, with its choices', () => {
  assert.deepEqual(checkAsk({ question: ' Which API? ', choices: [' v1', 'v2 '] }), {
    ok: true,
    question: { question: 'Which API?', choices: ['v1', 'v2'] },
  });
  assert.deepEqual(checkAsk({ question: 'Why?' }), { ok: true, question: { question: 'Why?' } });
  assert.deepEqual(checkAsk({ question: 'Why?', choices: [] }), { ok: true, question: { question: 'Why?' } });
});

test('bad calls are errors the model can fix', () => {
  for (const bad of [{}, { question: '  ' }, { question: 3 }, { question: 'x'.repeat(5000) }]) {
    const checked = checkAsk(bad);
    assert.ok(!checked.ok && checked.error.startsWith('Error: '), JSON.stringify(bad).slice(0, 40));
  }
  assert.equal(checkAsk({ question: 'q', choices: 'a' }).ok, false);
  assert.equal(checkAsk({ question: 'q', choices: ['a', ''] }).ok, false);
  assert.equal(checkAsk({ question: 'q', choices: Array.from({ length: 11 }, (_, i) => `c${i}`) }).ok, false);
  assert.deepEqual(ASK_TOOL['input_schema'] && (ASK_TOOL['input_schema'] as { required: string[] }).required, [
    'question',
  ]);
});

test('dispatched: a run step has it, a bad call is an error result; outside a run it is not offered', async () => {
  const ctx = toolContext({ run: { workflowId: 'w', issue: 1, artifactsDir: '/tmp/x' } });
  const bad = await executeTool({ id: '1', name: 'ask', input: { question: '' } }, ctx, 'l');
  assert.equal(bad.isError, true);
  assert.match(bad.content, /non-empty "question"/);
  const outside = await executeTool({ id: '2', name: 'ask', input: { question: 'q' } }, toolContext(), 'l');
  assert.equal(outside.isError, true);
  assert.match(outside.content, /not available/);
});
