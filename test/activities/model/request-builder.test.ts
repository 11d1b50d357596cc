/**
 * The request of a turn: at most four cache breakpoints where the cache needs them (the
 * previous chunk's end replacing the issue block on a chunk turn), and the agent's effort
 * and thinking passed through only when set.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LlmMessage } from '../../../src/activities/model/llm-client.js';
import { buildRequest, firstUserMessage, placeBreakpoints } from '../../../src/activities/model/request-builder.js';
import { stepInput } from './step-fixtures.js';

const input = stepInput({ worktreePath: '/nonexistent' });

function conversation(turns: number): LlmMessage[] {
  const messages: LlmMessage[] = [firstUserMessage(input)];
  for (let i = 0; i < turns; i++) {
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'bash', input: {} }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: `out ${i}` }] });
  }
  return messages;
}

const marked = (messages: readonly LlmMessage[]): string[] =>
  messages.flatMap((m, i) =>
    m.content.flatMap((b, j) => ('cache_control' in b && b.cache_control ? [`${i}.${j}`] : [])),
  );

test('breakpoints: issue and newest; the frontier; on a chunk turn the previous frontier instead of the issue', () => {
  assert.deepEqual(marked(placeBreakpoints(conversation(3))), ['0.0', '6.0']);
  assert.deepEqual(marked(placeBreakpoints(conversation(6), { frontier: { message: 8, block: 0 } })), [
    '0.0',
    '8.0',
    '12.0',
  ]);
  const chunkTurn = placeBreakpoints(conversation(10), {
    frontier: { message: 16, block: 0 },
    previousFrontier: { message: 8, block: 0 },
  });
  assert.deepEqual(marked(chunkTurn), ['8.0', '16.0', '20.0']);
  const request = buildRequest(input, conversation(10), undefined, {
    frontier: { message: 16, block: 0 },
    previousFrontier: { message: 8, block: 0 },
  });
  assert.equal(
    JSON.stringify(request).split('"cache_control"').length - 1,
    4,
    'with the system prompt: the API maximum',
  );
  assert.ok('cache_control' in conversation(1)[0]!.content[0]!, 'the step keeps its own messages unchanged');
});

test('effort and thinking are passed through only when the agent sets them', () => {
  const plain = buildRequest(input, conversation(0));
  assert.equal(plain.thinking, undefined);
  assert.equal(plain.output_config?.effort, undefined);
  const tuned = buildRequest(
    { ...input, model: { ...input.model, effort: 'low', thinking: 'disabled' } },
    conversation(0),
  );
  assert.deepEqual(tuned.thinking, { type: 'disabled' });
  assert.equal(tuned.output_config?.effort, 'low');
  assert.equal(tuned.output_config?.format.type, 'json_schema');
});
