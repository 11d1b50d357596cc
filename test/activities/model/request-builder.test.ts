/**
 * The request of a turn: at most four cache breakpoints where the cache needs them (the
 * previous chunk's end replacing the issue block on a chunk turn), and the agent's effort
 * and thinking passed through only when set. A turn's context by strategy: collapsed (a
 * digest), masked (placeholders and breakpoint places), the API's context editing passed
 * through, or the conversation as it is.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createArtifactStore } from '../../../src/activities/artifacts/artifact-store.js';
import type { LlmMessage } from '../../../src/activities/model/llm-client.js';
import {
  buildRequest,
  createTurnContext,
  firstUserMessage,
  placeBreakpoints,
} from '../../../src/activities/model/request-builder.js';
import { DEFAULT_CONTEXT_MANAGEMENT, type ContextManagement } from '../../../src/contracts/model-options.js';
import { stepInput, tempDir } from './step-fixtures.js';

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

/** A step prompt and `turns` tool turns of 900-character outputs. */
function toolTurns(turns: number): LlmMessage[] {
  const messages: LlmMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'step' }] }];
  for (let i = 0; i < turns; i++) {
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'bash', input: {} }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: 'y'.repeat(900) }] });
  }
  return messages;
}

const store = createArtifactStore(tempDir('turn-context-'));
const settings = (over: Partial<ContextManagement>): ContextManagement => ({ ...DEFAULT_CONTEXT_MANAGEMENT, ...over });

test('collapse (the default): the oldest turns as a digest after the step prompt, the newest whole', async () => {
  const turn = await createTurnContext(undefined, store)(toolTurns(10));
  assert.equal(turn.messages.length, 1 + 2 * 2, 'eight turns collapsed in one chunk; two sent whole');
  const digest = (turn.messages[0]!.content[1] as { text: string }).text;
  assert.equal(digest.split('\n').filter((l) => l.startsWith('- turn ')).length, 8);
  assert.deepEqual(turn.shape.frontier, { message: 0, block: 1 }, 'the digest block');
  assert.equal(turn.shape.contextManagement, undefined);
});

const mask = settings({ strategy: 'mask' });

test('mask: placeholders and the frontier', async () => {
  const turn = await createTurnContext(mask, store)(toolTurns(10));
  const sent = turn.messages.flatMap((m) => m.content).filter((b) => b.type === 'tool_result');
  assert.equal(sent.filter((b) => String((b as { content: string }).content).startsWith('[Output of')).length, 8);
  assert.deepEqual(turn.shape.frontier, { message: 16, block: 0 }, 'the eighth result');
  assert.equal(turn.shape.contextManagement, undefined);
});

test('mask: the turn before a chunk turn keeps its newest breakpoint where the previous request had it', async () => {
  // 9 results: none masked yet (keep 2, chunks of 8); the next request masks eight.
  const turn = await createTurnContext(mask, store)(toolTurns(9));
  assert.equal(turn.shape.frontier, undefined);
  assert.deepEqual(turn.shape.stableEnd, { message: 16, block: 0 }, 'the eighth result, cached by the last request');
  assert.equal((await createTurnContext(mask, store)(toolTurns(8))).shape.stableEnd, undefined);
});

test("api-clear: the messages as they are, and the API's clear_tool_uses edit", async () => {
  const messages = toolTurns(7);
  const turn = await createTurnContext(settings({ strategy: 'api-clear', keepToolResults: 5 }), store)(messages);
  assert.equal(turn.messages, messages);
  assert.deepEqual(turn.shape.contextManagement, {
    edits: [
      {
        type: 'clear_tool_uses_20250919',
        trigger: { type: 'input_tokens', value: 30_000 },
        keep: { type: 'tool_uses', value: 5 },
        clear_at_least: { type: 'input_tokens', value: 5_000 },
      },
    ],
  });
});

test('none: the messages as they are', async () => {
  const messages = toolTurns(7);
  const turn = await createTurnContext(settings({ strategy: 'none' }), store)(messages);
  assert.equal(turn.messages, messages);
  assert.deepEqual(turn.shape, {});
});
