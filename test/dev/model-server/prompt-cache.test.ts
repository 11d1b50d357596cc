/**
 * The offline prompt cache bills like the API: writes up to the last breakpoint, reads the
 * longest cached prefix a breakpoint reaches (20 blocks back), five minutes of life that a
 * read renews, nothing under the minimum length, and a changed block invalidates what follows.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PromptCache } from '../../../src/dev/model-server/prompt-cache.js';
import { estimateTokens, promptSegments } from '../../../src/dev/model-server/request-segments.js';

const EPHEMERAL = { type: 'ephemeral' } as const;
/** About 1500 tokens at 4 characters a token: one block is over the 1024-token minimum. */
const BIG = 'x'.repeat(6000);

type Block = Record<string, unknown>;

/** Tokens of `body`'s prompt up to and including block `index` (the last one by default). */
function upTo(body: unknown, index = -1): number {
  return promptSegments(body).at(index)!.cumulativeTokens;
}

function result(i: number, text = BIG, breakpoint = false): Block {
  return {
    type: 'tool_result',
    tool_use_id: `t${i}`,
    content: text,
    ...(breakpoint ? { cache_control: EPHEMERAL } : {}),
  };
}

/** A step's request after `turns` tool turns, the newest result carrying the moving breakpoint. */
function request(turns: number, options: { model?: string; firstResult?: string } = {}): unknown {
  const messages: Array<{ role: string; content: Block[] }> = [
    {
      role: 'user',
      content: [
        { type: 'text', text: BIG, cache_control: EPHEMERAL },
        { type: 'text', text: 'step' },
      ],
    },
  ];
  for (let i = 0; i < turns; i++) {
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'bash', input: {} }] });
    const text = i === 0 && options.firstResult !== undefined ? options.firstResult : BIG;
    messages.push({ role: 'user', content: [result(i, text, i === turns - 1)] });
  }
  return {
    model: options.model ?? 'claude-sonnet-5-5',
    system: [{ type: 'text', text: 'system', cache_control: EPHEMERAL }],
    messages,
  };
}

/** The prompt through the issue block (system + issue), the second breakpoint. */
const ISSUE = upTo(request(0), 1);

function clock(start = 0): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

test('the estimate: ceil(chars / 4) of each block without its cache_control', () => {
  assert.equal(estimateTokens(4000), 1000);
  assert.equal(estimateTokens(4001), 1001);
  const segments = promptSegments(request(1));
  assert.equal(segments.length, 5, 'system, issue, step prompt, tool_use, tool_result');
  assert.equal(segments[1]!.tokens, estimateTokens(JSON.stringify({ type: 'text', text: BIG }).length));
  assert.deepEqual(
    segments.map((s) => s.breakpoint),
    [true, true, false, false, true],
  );
  const moved = promptSegments({ ...(request(1) as object), system: [{ type: 'text', text: 'system' }] });
  assert.equal(moved[0]!.prefixHash, segments[0]!.prefixHash, 'a breakpoint is not part of the prefix');
});

test('a conversation reads what it wrote and writes only its new tail', () => {
  const cache = new PromptCache();
  const first = cache.account(promptSegments(request(0)));
  assert.equal(first.cache_read_input_tokens, 0);
  assert.equal(first.cache_creation_input_tokens, ISSUE, 'system and issue block, up to the last breakpoint');
  assert.equal(first.input_tokens, upTo(request(0)) - ISSUE, 'the step prompt after it');

  const second = cache.account(promptSegments(request(1)));
  assert.equal(second.cache_read_input_tokens, ISSUE);
  assert.equal(second.cache_creation_input_tokens, upTo(request(1)) - ISSUE);
  assert.equal(second.input_tokens, 0);

  const third = cache.account(promptSegments(request(2)));
  assert.equal(third.cache_read_input_tokens, upTo(request(1)), 'the previous turn, found by the moving breakpoint');
  assert.equal(third.cache_creation_input_tokens, upTo(request(2)) - upTo(request(1)));
});

test('an edited earlier block invalidates every prefix after it', () => {
  const cache = new PromptCache();
  cache.account(promptSegments(request(3)));
  const edited = cache.account(promptSegments(request(4, { firstResult: 'masked' })));
  assert.equal(edited.cache_read_input_tokens, ISSUE, 'back to the issue block');
  assert.equal(edited.cache_creation_input_tokens, upTo(request(4, { firstResult: 'masked' })) - ISSUE);
});

test('the cache is per model', () => {
  const cache = new PromptCache();
  cache.account(promptSegments(request(1)));
  const other = cache.account(promptSegments(request(2, { model: 'claude-opus-5-5' })));
  assert.equal(other.cache_read_input_tokens, 0);
});

test('five minutes of life, renewed by a read', () => {
  const time = clock();
  const cache = new PromptCache({ now: time.now });
  cache.account(promptSegments(request(0)));
  time.advance(4 * 60_000);
  assert.equal(cache.account(promptSegments(request(0))).cache_read_input_tokens, ISSUE);
  time.advance(4 * 60_000);
  assert.equal(cache.account(promptSegments(request(0))).cache_read_input_tokens, ISSUE, 'the read renewed it');
  time.advance(5 * 60_000);
  const late = cache.account(promptSegments(request(0)));
  assert.equal(late.cache_read_input_tokens, 0);
  assert.equal(late.cache_creation_input_tokens, ISSUE);
});

test('a prefix under the minimum length is never cached', () => {
  const cache = new PromptCache();
  const small = { model: 'm', system: [{ type: 'text', text: 'short', cache_control: EPHEMERAL }], messages: [] };
  const a = cache.account(promptSegments(small));
  const b = cache.account(promptSegments(small));
  assert.deepEqual([a.cache_creation_input_tokens, b.cache_read_input_tokens], [0, 0]);
  assert.equal(b.input_tokens, promptSegments(small)[0]!.tokens);
  assert.equal(cache.size(), 0);
});

test('a cached prefix more than 20 blocks before every breakpoint is not found', () => {
  const cache = new PromptCache();
  cache.account(promptSegments(request(1)));
  // 12 turns later without the breakpoints in between: 24 blocks separate the entry from the breakpoint.
  const far = cache.account(promptSegments(request(13)));
  assert.equal(far.cache_read_input_tokens, ISSUE, 'only the issue block breakpoint hits');
  const nearCache = new PromptCache();
  nearCache.account(promptSegments(request(1)));
  const near = nearCache.account(promptSegments(request(9)));
  assert.equal(near.cache_read_input_tokens, upTo(request(1)), '16 blocks back is within reach');
});
