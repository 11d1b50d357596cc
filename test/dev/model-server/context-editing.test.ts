/**
 * The offline API's tool-result clearing: nothing under the trigger, the oldest results
 * cleared past it with the newest `keep` tool uses and excluded tools kept, nothing when
 * less than `clear_at_least` would go, inputs emptied only on request.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyContextEditing, CLEARED_PLACEHOLDER } from '../../../src/dev/model-server/context-editing.js';

type Block = Record<string, unknown>;

function body(edit: Block | undefined, tools = ['bash', 'bash', 'todo', 'bash', 'bash']): Block {
  const messages: Array<{ role: string; content: Block[] }> = [
    { role: 'user', content: [{ type: 'text', text: 'go' }] },
  ];
  tools.forEach((name, i) => {
    messages.push({
      role: 'assistant',
      content: [{ type: 'tool_use', id: `t${i}`, name, input: { command: `c${i}` } }],
    });
    messages.push({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: 'x'.repeat(4000) }],
    });
  });
  return { model: 'm', messages, ...(edit ? { context_management: { edits: [edit] } } : {}) };
}

const results = (b: unknown): string[] =>
  (b as { messages: Array<{ content: Block[] }> }).messages
    .flatMap((m) => m.content)
    .filter((c) => c['type'] === 'tool_result')
    .map((c) => (c['content'] === CLEARED_PLACEHOLDER ? 'cleared' : 'whole'));

const edit = (over: Block = {}): Block => ({
  type: 'clear_tool_uses_20250919',
  trigger: { type: 'input_tokens', value: 3000 },
  keep: { type: 'tool_uses', value: 2 },
  ...over,
});

test('no edit, or under the trigger: the body as sent', () => {
  const plain = body(undefined);
  assert.equal(applyContextEditing(plain), plain);
  const under = body(edit({ trigger: { type: 'input_tokens', value: 100_000 } }));
  assert.equal(applyContextEditing(under), under);
});

test('past the trigger the oldest results are cleared, keeping the newest and excluded tools', () => {
  const sent = body(edit({ exclude_tools: ['todo'] }));
  const edited = applyContextEditing(sent);
  assert.deepEqual(results(edited), ['cleared', 'cleared', 'whole', 'whole', 'whole']);
  assert.deepEqual(results(sent), ['whole', 'whole', 'whole', 'whole', 'whole'], 'the request itself is not changed');
  const uses = (edited as { messages: Array<{ content: Block[] }> }).messages[1]!.content[0]!;
  assert.deepEqual(uses['input'], { command: 'c0' }, 'inputs stay unless clear_tool_inputs');
  const inputs = applyContextEditing(body(edit({ clear_tool_inputs: true }))) as {
    messages: Array<{ content: Block[] }>;
  };
  assert.deepEqual(inputs.messages[1]!.content[0]!['input'], {});
});

test('nothing is cleared when less than clear_at_least would go', () => {
  const sent = body(edit({ clear_at_least: { type: 'input_tokens', value: 5000 } }));
  assert.equal(applyContextEditing(sent), sent);
  const enough = body(edit({ clear_at_least: { type: 'input_tokens', value: 2000 } }));
  assert.deepEqual(results(applyContextEditing(enough)), ['cleared', 'cleared', 'cleared', 'whole', 'whole']);
});
