/**
 * A turn's context by strategy: collapsed (a digest), masked (placeholders and breakpoint places), the API's
 * context editing passed through, or the conversation as it is.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createArtifactStore } from '../../../src/activities/artifacts/artifact-store.js';
import type { LlmMessage } from '../../../src/activities/model/llm-client.js';
import { createTurnContext } from '../../../src/activities/model/turn-context.js';
import { DEFAULT_CONTEXT_MANAGEMENT, type ContextManagement } from '../../../src/contracts/model-options.js';
import { tempDir } from './step-fixtures.js';

function conversation(turns: number): LlmMessage[] {
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
  const turn = await createTurnContext(undefined, store)(conversation(10));
  assert.equal(turn.messages.length, 1 + 2 * 2, 'eight turns collapsed in one chunk; two sent whole');
  const digest = (turn.messages[0]!.content[1] as { text: string }).text;
  assert.equal(digest.split('\n').filter((l) => l.startsWith('- turn ')).length, 8);
  assert.deepEqual(turn.shape.frontier, { message: 0, block: 1 }, 'the digest block');
  assert.equal(turn.shape.contextManagement, undefined);
});

const mask = settings({ strategy: 'mask' });

test('mask: placeholders and the frontier', async () => {
  const turn = await createTurnContext(mask, store)(conversation(10));
  const sent = turn.messages.flatMap((m) => m.content).filter((b) => b.type === 'tool_result');
  assert.equal(sent.filter((b) => String((b as { content: string }).content).startsWith('[Output of')).length, 8);
  assert.deepEqual(turn.shape.frontier, { message: 16, block: 0 }, 'the eighth result');
  assert.equal(turn.shape.contextManagement, undefined);
});

test('mask: the turn before a chunk turn keeps its newest breakpoint where the previous request had it', async () => {
  // 9 results: none masked yet (keep 2, chunks of 8); the next request masks eight.
  const turn = await createTurnContext(mask, store)(conversation(9));
  assert.equal(turn.shape.frontier, undefined);
  assert.deepEqual(turn.shape.stableEnd, { message: 16, block: 0 }, 'the eighth result, cached by the last request');
  assert.equal((await createTurnContext(mask, store)(conversation(8))).shape.stableEnd, undefined);
});

test("api-clear: the messages as they are, and the API's clear_tool_uses edit", async () => {
  const messages = conversation(7);
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
  const messages = conversation(7);
  const turn = await createTurnContext(settings({ strategy: 'none' }), store)(messages);
  assert.equal(turn.messages, messages);
  assert.deepEqual(turn.shape, {});
});
