/**
 * The offline server's `usage` through the SDK: cache reads and writes from the request's
 * breakpoints, a rule's own usage kept as written, more than 4 breakpoints refused like
 * the API does, and a recorded session replayed with the cache reads the upstream billed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { createModelServer } from '../../../src/dev/model-server/model-server.js';
import type { SessionScript } from '../../../src/dev/model-server/session-script.js';

const EPHEMERAL = { type: 'ephemeral' } as const;
const ISSUE = `Issue #7: ${'the sum is wrong. '.repeat(400)}`;

const sdk = (url: string): Anthropic => new Anthropic({ apiKey: 'ignored', baseURL: url, maxRetries: 0 });

/** A step's request after `turns` tool turns, breakpoints where request-builder.ts puts them. */
function ask(turns: number, extraBreakpoints = 0): Anthropic.MessageCreateParamsNonStreaming {
  const messages: Anthropic.MessageParam[] = [
    {
      role: 'user',
      content: [
        { type: 'text', text: ISSUE, cache_control: EPHEMERAL },
        { type: 'text', text: 'STEP initial.issue go' },
      ],
    },
  ];
  for (let i = 0; i < turns; i++) {
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'bash', input: {} }] });
    const last = i === turns - 1;
    messages.push({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: `t${i}`,
          content: `out ${i} `.repeat(200),
          ...(last ? { cache_control: EPHEMERAL } : {}),
        },
      ],
    });
  }
  const system: Anthropic.TextBlockParam[] = [{ type: 'text', text: 'You are careful.', cache_control: EPHEMERAL }];
  for (let i = 0; i < extraBreakpoints; i++) system.push({ type: 'text', text: `more ${i}`, cache_control: EPHEMERAL });
  return { model: 'claude-sonnet-5-5', max_tokens: 100, system, messages };
}

const script: SessionScript = {
  name: 'usage',
  rules: [
    {
      id: 'recorded',
      when: { turn: 5 },
      respond: { text: 'as recorded', usage: { input_tokens: 10, output_tokens: 3 } },
    },
    { id: 'tool', when: {}, respond: { toolUse: [{ name: 'bash', input: { command: 'true' } }] } },
  ],
};

test('usage bills cache writes, then reads of the repeated prefix', async () => {
  const server = await createModelServer({ session: script });
  try {
    const client = sdk(server.url);
    const first = await client.messages.create(ask(0));
    assert.equal(first.usage.cache_read_input_tokens, 0);
    assert.ok(first.usage.cache_creation_input_tokens! > 1024, 'system and issue block written');
    assert.ok(first.usage.input_tokens > 0, 'the step prompt after the last breakpoint');
    const second = await client.messages.create(ask(1));
    assert.equal(second.usage.cache_read_input_tokens, first.usage.cache_creation_input_tokens);
    assert.equal(second.usage.input_tokens, 0, 'everything up to the moving breakpoint is cached');
    const third = await client.messages.create(ask(2));
    const secondPrompt = second.usage.cache_read_input_tokens! + second.usage.cache_creation_input_tokens!;
    assert.equal(third.usage.cache_read_input_tokens, secondPrompt);

    const recorded = await client.messages.create(ask(5));
    assert.deepEqual(
      [recorded.usage.input_tokens, recorded.usage.output_tokens, recorded.usage.cache_read_input_tokens],
      [10, 3, 0],
      "a rule's own usage is the usage",
    );

    await fetch(`${server.url}/_reset`, { method: 'POST' });
    const afterReset = await client.messages.create(ask(1));
    assert.equal(afterReset.usage.cache_read_input_tokens, 0, 'reset empties the cache');
  } finally {
    await server.close();
  }
});

test('more than 4 cache_control blocks are refused as the API refuses them', async () => {
  const server = await createModelServer({ session: script });
  try {
    await assert.rejects(sdk(server.url).messages.create(ask(1, 2)), (e: unknown) => {
      assert.ok(e instanceof Anthropic.BadRequestError);
      assert.match(e.message, /maximum of 4 blocks with cache_control.*Found 5/);
      return true;
    });
    assert.equal(server.stats().log[0]?.status, 400);
    const ok = await sdk(server.url).messages.create(ask(1, 1));
    assert.equal(ok.stop_reason, 'tool_use');
  } finally {
    await server.close();
  }
});

test('a recorded session replays the cache reads its upstream billed', async () => {
  const upstream = await createModelServer({ session: script });
  const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'rec-usage-')), 'session.json');
  const recorder = await createModelServer({ record: { upstream: upstream.url, out } });
  try {
    const client = sdk(recorder.url);
    await client.messages.create(ask(0));
    const live = await client.messages.create(ask(1));
    assert.ok(live.usage.cache_read_input_tokens! > 0);
    // Replayed by a fresh server whose own cache never saw the first request.
    const replay = await createModelServer({ session: out });
    try {
      const again = await sdk(replay.url).messages.create(ask(1));
      assert.equal(again.usage.cache_read_input_tokens, live.usage.cache_read_input_tokens);
      assert.equal(again.usage.input_tokens, live.usage.input_tokens);
    } finally {
      await replay.close();
    }
  } finally {
    await recorder.close();
    await upstream.close();
  }
});

test("a request asking for the API's context editing is billed as edited", async () => {
  const server = await createModelServer({ session: script });
  try {
    const client = sdk(server.url);
    const total = (u: Anthropic.Usage): number =>
      u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
    const whole = await client.messages.create(ask(4));
    const edits = [
      {
        type: 'clear_tool_uses_20250919',
        trigger: { type: 'input_tokens', value: 1000 },
        keep: { type: 'tool_uses', value: 1 },
      },
    ];
    const edited = await client.messages.create({ ...ask(4), context_management: { edits } } as never);
    assert.ok(total(edited.usage) < total(whole.usage) - 800, `${total(edited.usage)} vs ${total(whole.usage)}`);
  } finally {
    await server.close();
  }
});
