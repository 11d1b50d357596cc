/**
 * Observation masking: whole chunks of older results become placeholders, the newest stay
 * whole, a masked result is masked the same way every turn, and with the request builder's
 * breakpoints the offline prompt cache reads the masked history instead of rewriting it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LlmMessage } from '../../../src/activities/model/llm-client.js';
import {
  maskedCount,
  maskObservations,
  type MaskedResult,
  type MaskingPolicy,
} from '../../../src/activities/model/observation-masking.js';
import { buildRequest, firstUserMessage } from '../../../src/activities/model/request-builder.js';
import { PromptCache } from '../../../src/dev/model-server/prompt-cache.js';
import { breakpointCount, promptSegments } from '../../../src/dev/model-server/request-segments.js';
import { stepInput } from './step-fixtures.js';

const POLICY: MaskingPolicy = { keepToolResults: 3, maskChunk: 4, minMaskChars: 100 };
const placeholder = (r: MaskedResult): Promise<string> =>
  Promise.resolve(`[masked ${r.toolName} ${JSON.stringify(r.input)} ${r.content.length}]`);

const input = stepInput({ worktreePath: '/nonexistent', issueContext: `Issue: ${'context '.repeat(800)}` });

/** The step's conversation after `turns` tool turns; turn 2's output is short. */
function conversation(turns: number): LlmMessage[] {
  const messages: LlmMessage[] = [firstUserMessage(input)];
  for (let i = 0; i < turns; i++) {
    messages.push({
      role: 'assistant',
      content: [
        { type: 'text', text: `turn ${i}` },
        { type: 'tool_use', id: `t${i}`, name: 'bash', input: { command: `cat file${i}` } },
      ],
    });
    const content = i === 2 ? 'ok' : `line of output ${i}\n`.repeat(150);
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content }] });
  }
  return messages;
}

/**
 * Turn `turns` of the conversation as the step sends it: masked by `policy`, built with the
 * view's breakpoints (at most 4, asserted), and billed by `cache` as the API would.
 */
async function cachedTurn(turns: number, policy: MaskingPolicy, cache: PromptCache) {
  const view = await maskObservations(conversation(turns), policy, placeholder);
  const request = buildRequest(input, view.messages, undefined, {
    ...(view.frontier ? { frontier: view.frontier } : {}),
    ...(view.previousFrontier ? { previousFrontier: view.previousFrontier } : {}),
    ...(view.stableEnd ? { stableEnd: view.stableEnd } : {}),
  });
  const segments = promptSegments(request);
  assert.ok(breakpointCount(segments) <= 4, `turn ${turns}: at most 4 breakpoints`);
  return { view, segments, usage: cache.account(segments) };
}

test('whole chunks are masked, at least keepToolResults stay whole', () => {
  assert.deepEqual(
    [0, 3, 6, 7, 10, 11, 14, 15].map((n) => maskedCount(n, POLICY)),
    [0, 0, 0, 4, 4, 8, 8, 12],
  );
  assert.equal(maskedCount(5, { ...POLICY, keepToolResults: 1, maskChunk: 1 }), 4);
});

test('older results become placeholders; the newest, the short ones and the conversation stay whole', async () => {
  const messages = conversation(8);
  const before = JSON.stringify(messages);
  const view = await maskObservations(messages, POLICY, placeholder);
  assert.equal(JSON.stringify(messages), before, 'the step keeps its whole conversation');
  const results = view.messages.flatMap((m) => m.content.filter((b) => b.type === 'tool_result'));
  const texts = results.map((b) => String((b as { content: string }).content));
  assert.deepEqual(texts.slice(0, 4), [
    '[masked bash {"command":"cat file0"} 2550]',
    '[masked bash {"command":"cat file1"} 2550]',
    'ok',
    '[masked bash {"command":"cat file3"} 2550]',
  ]);
  assert.ok(texts.slice(4).every((t) => t.startsWith('line of output')));
  assert.deepEqual(view.frontier, { message: 8, block: 0 }, 'the fourth result');
  assert.equal(view.previousFrontier, undefined, 'the first chunk: the issue block is the previous prefix');
  assert.equal((await maskObservations(conversation(6), POLICY, placeholder)).frontier, undefined);
});

test('a masked result is masked the same way on every later turn', async () => {
  const prefixOf = async (turns: number, upTo: number): Promise<string> =>
    JSON.stringify((await maskObservations(conversation(turns), POLICY, placeholder)).messages.slice(0, upTo));
  const chunk1 = await prefixOf(7, 9);
  for (const turns of [8, 9, 10, 11, 14]) assert.equal(await prefixOf(turns, 9), chunk1, `turn ${turns}`);
  const grown = await maskObservations(conversation(11), POLICY, placeholder);
  assert.deepEqual(grown.previousFrontier, { message: 8, block: 0 }, 'the chunk before');
  assert.deepEqual(grown.frontier, { message: 16, block: 0 });
});

test('with the builder breakpoints a masked history is read from cache, not written again', async () => {
  // Chunks of 8 turns span more than the API's 20-block lookback: only the previous chunk's
  // own breakpoint lets a chunk turn read the masked history.
  const policy = { ...POLICY, maskChunk: 8 };
  const cache = new PromptCache();
  let previousPrompt = 0;
  for (let turns = 0; turns <= 30; turns++) {
    const { view, segments, usage } = await cachedTurn(turns, policy, cache);
    const prompt = segments.at(-1)!.cumulativeTokens;
    if (turns >= 1) {
      const newTail = usage.cache_creation_input_tokens + usage.input_tokens;
      // What is not read: the new turn (~700 tokens), or on a chunk turn also the placeholders
      // and the 3 whole results after the previous chunk (~2600).
      const chunkTurn = view.frontier !== undefined && maskedCount(turns - 1, policy) !== maskedCount(turns, policy);
      assert.ok(newTail <= (chunkTurn ? 2700 : 800), `turn ${turns}: ${newTail} tokens not read from cache`);
      assert.ok(usage.cache_read_input_tokens > 1000, `turn ${turns}: the prefix is read`);
    }
    if (turns === 30) assert.ok(prompt < previousPrompt + 1000, 'the prompt no longer grows by whole outputs');
    previousPrompt = prompt;
  }
});

test('before a chunk turn the newest turn is not written to the cache: the next request rewrites it anyway', async () => {
  // keep 3, chunks of 4: 6 results mask none, 7 mask the first four.
  const preChunk = await maskObservations(conversation(6), POLICY, placeholder);
  assert.deepEqual(preChunk.stableEnd, { message: 10, block: 0 }, 'the previous newest result (cached): read it');
  assert.equal((await maskObservations(conversation(5), POLICY, placeholder)).stableEnd, undefined);
  const chunkAndPre = await maskObservations(conversation(7), { ...POLICY, maskChunk: 1 }, placeholder);
  assert.deepEqual(chunkAndPre.stableEnd, { message: 8, block: 0 }, 'the last result the next request repeats');
});

test('one result kept, chunks of 1: each output is billed once as input, never written to the cache', async () => {
  const policy = { ...POLICY, keepToolResults: 1, maskChunk: 1 };
  const cache = new PromptCache();
  for (let turns = 0; turns <= 20; turns++) {
    const { usage } = await cachedTurn(turns, policy, cache);
    // Turn 3 sends the short output of turn 2 ('ok').
    if (turns >= 2 && turns !== 3) {
      // Written: the previous turn's assistant message and placeholder (~40 tokens); the
      // new output (~900 tokens) is plain input.
      assert.ok(usage.cache_creation_input_tokens < 100, `turn ${turns}: ${usage.cache_creation_input_tokens} written`);
      assert.ok(usage.input_tokens > 700, `turn ${turns}: the new output is input`);
      assert.ok(usage.cache_read_input_tokens > 1000, `turn ${turns}: the prefix is read`);
    }
  }
});
