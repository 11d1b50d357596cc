import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Anthropic from '@anthropic-ai/sdk';
import { createModelServer } from '../../../src/dev/model-server/model-server.js';
import { parseSessionScript } from '../../../src/dev/model-server/session-script.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const fixture = path.join(root, 'test/fixtures/sessions/demo-step.json');

function sdk(url: string): Anthropic {
  return new Anthropic({ apiKey: 'ignored', baseURL: url, maxRetries: 0 });
}

const ask = (prompt: string, assistantTurns = 0, toolResult?: string): Anthropic.MessageCreateParamsNonStreaming => {
  const messages: Anthropic.MessageParam[] = [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'issue' },
        { type: 'text', text: prompt },
      ],
    },
  ];
  for (let i = 0; i < assistantTurns; i++) {
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'bash', input: {} }] });
    messages.push({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: toolResult ?? 'x' }],
    });
  }
  return { model: 'claude-sonnet-4-6', max_tokens: 100, messages };
};

test('plays the fixture: turn matching, tool_use ids, JSON answers, times, errors with headers', async () => {
  const server = await createModelServer({ session: fixture });
  try {
    const client = sdk(server.url);
    const first = await client.messages.create(ask('STEP initial.issue go'));
    assert.equal(first.stop_reason, 'tool_use');
    assert.deepEqual(
      first.content.map((b) => b.type),
      ['text', 'tool_use'],
    );
    assert.equal((first.content[1] as Anthropic.ToolUseBlock).id, 'toolu_init-read_0_0');
    assert.ok(first.usage.input_tokens > 0);
    const fix = await client.messages.create(ask('STEP initial.issue go', 1, 'export const sum = (a, b) => a - b;'));
    assert.equal((fix.content[0] as Anthropic.ToolUseBlock).name, 'str_replace_based_edit_tool');
    const done = await client.messages.create(ask('STEP initial.issue go', 2));
    assert.equal(done.stop_reason, 'end_turn');
    assert.equal(JSON.parse((done.content[0] as Anthropic.TextBlock).text).stepId, 'initial.issue');

    await assert.rejects(client.messages.create(ask('STEP flaky')), (e: unknown) => {
      assert.ok(e instanceof Anthropic.RateLimitError);
      assert.equal(e.headers.get('retry-after'), '2');
      return true;
    });
    const ok = await client.messages.create(ask('STEP flaky'));
    assert.equal(ok.stop_reason, 'end_turn');

    await assert.rejects(
      client.messages.create(ask('STEP unknown')),
      /no rule matched: turn=0; step prompt starts: STEP unknown/,
    );
    const stats = server.stats();
    assert.equal(stats.requests, 6);
    assert.equal(stats.unmatched, 1);
    assert.deepEqual(stats.byRule, { 'init-read': 1, 'init-fix': 1, 'init-done': 1, flaky: 1, 'flaky-ok': 1 });
    assert.deepEqual(stats.log[3], { rule: 'flaky', turn: 0, status: 429 });

    const viaHttp = (await (await fetch(`${server.url}/_stats`)).json()) as { requests: number };
    assert.equal(viaHttp.requests, 6);
    await fetch(`${server.url}/_reset`, { method: 'POST' });
    assert.equal(server.stats().requests, 0);
    await assert.rejects(client.messages.create(ask('STEP flaky')), /slow down/, 'times counters are reset too');
  } finally {
    await server.close();
  }
});

test('systemContains, usage and stopReason overrides, rawText', async () => {
  const server = await createModelServer({
    session: {
      name: 'x',
      rules: [
        {
          id: 'sys',
          when: { systemContains: 'reviewer' },
          respond: { rawText: 'not json', stopReason: 'max_tokens', usage: { output_tokens: 7 } },
        },
        { id: 'any', when: {}, respond: { text: 'hello' } },
      ],
    },
  });
  try {
    const client = sdk(server.url);
    const a = await client.messages.create({ ...ask('p'), system: [{ type: 'text', text: 'You are a reviewer.' }] });
    assert.equal(a.stop_reason, 'max_tokens');
    assert.equal(a.usage.output_tokens, 7);
    assert.equal((a.content[0] as Anthropic.TextBlock).text, 'not json');
    const b = await client.messages.create(ask('p'));
    assert.equal((b.content[0] as Anthropic.TextBlock).text, 'hello');
  } finally {
    await server.close();
  }
});

test('invalid scripts fail at load with a pointer', () => {
  assert.throws(
    () => parseSessionScript({ name: 'x', rules: [{ id: 'a', when: { turns: 1 }, respond: {} }] }),
    (e: unknown) => {
      assert.match(String((e as { where?: string }).where), /#\/rules\/0\/when\/turns/);
      return true;
    },
  );
  assert.throws(
    () => parseSessionScript({ name: 'x', rules: [{ id: 'a', respond: { error: { status: 429 } } }] }),
    /error must be/,
  );
});

test('record mode proxies upstream and writes a replayable script without keys', async () => {
  const upstream = await createModelServer({ session: fixture });
  const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'rec-')), 'session.json');
  const recorder = await createModelServer({ record: { upstream: upstream.url, apiKey: 'sk-ant-real99', out } });
  try {
    const client = new Anthropic({ apiKey: 'sk-ant-cli888', baseURL: recorder.url, maxRetries: 0 });
    await client.messages.create(ask('STEP initial.issue go'));
    await client.messages.create(ask('STEP initial.issue go', 2));
    await assert.rejects(client.messages.create(ask('STEP flaky')), /slow down/);
    const text = readFileSync(out, 'utf8');
    assert.doesNotMatch(text, /sk-ant|x-api-key|authorization/i);
    const script = parseSessionScript(JSON.parse(text));
    assert.equal(script.rules.length, 3);
    assert.deepEqual(script.rules[0]?.when, { promptContains: 'STEP initial.issue go', turn: 0 });
    assert.deepEqual(script.rules[2]?.respond.error?.headers, { 'retry-after': '2' });

    const replay = await createModelServer({ session: out });
    try {
      const again = await sdk(replay.url).messages.create(ask('STEP initial.issue go', 2));
      assert.equal(JSON.parse((again.content[0] as Anthropic.TextBlock).text).summary, 'sum() now adds');
    } finally {
      await replay.close();
    }
  } finally {
    await recorder.close();
    await upstream.close();
  }
});

test('CLI: --help, usage errors exit 2, --session prints the URL', async () => {
  const cli = path.join(root, 'src/dev/model-server/model-server-command.ts');
  const run = promisify(execFile);
  const help = await run(process.execPath, ['--import', 'tsx', cli, '--help'], { cwd: root });
  assert.match(help.stdout, /--session FILE/);
  await assert.rejects(
    run(process.execPath, ['--import', 'tsx', cli, '--record'], { cwd: root }),
    (e: { code?: number; stderr?: string }) => {
      assert.equal(e.code, 2);
      assert.equal(e.stderr?.trim().split('\n').length, 1);
      return true;
    },
  );
  const child = spawn(process.execPath, ['--import', 'tsx', cli, '--session', fixture], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
      child.once('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const stats = (await (await fetch(`${url}/_stats`)).json()) as { requests: number };
    assert.equal(stats.requests, 0);
  } finally {
    child.kill('SIGTERM');
  }
});
