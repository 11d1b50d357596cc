/**
 * Context management in a real step's tool loop, seen on the wire: by default older tool
 * results reach the API as placeholders while the transcript keeps them whole; `api-clear`
 * sends the API's context editing with its beta header and every result whole.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { anthropicLlmClient, CONTEXT_MANAGEMENT_BETA } from '../../../src/activities/model/anthropic-llm-client.js';
import { runQueryStep } from '../../../src/activities/model/query-step.js';
import { DEFAULT_CONTEXT_MANAGEMENT, type ContextManagement } from '../../../src/contracts/model-options.js';
import { GOOD_ANSWER, recordingCtx, stepInput } from './step-fixtures.js';

interface Seen {
  readonly body: { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> } & Record<
    string,
    unknown
  >;
  readonly headers: IncomingHttpHeaders;
}

/** A Messages API stand-in: `toolTurns` bash calls printing 2 KB each, then the final answer. */
async function withCapture<T>(toolTurns: number, fn: (url: string, seen: Seen[]) => Promise<T>): Promise<T> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Seen['body'];
      seen.push({ body, headers: req.headers });
      // One request per turn: counting assistant messages would miss collapsed turns.
      const turn = seen.length - 1;
      const content =
        turn < toolTurns
          ? [
              {
                type: 'tool_use',
                id: `toolu_${turn}`,
                name: 'bash',
                input: { command: `seq -w 1 400 | sed s/^/${turn}-/` },
              },
            ]
          : [{ type: 'text', text: JSON.stringify(GOOD_ANSWER) }];
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `msg_${turn}`,
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-5-5',
          content,
          stop_reason: turn < toolTurns ? 'tool_use' : 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 10 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function results(seen: Seen): string[] {
  return seen.body.messages
    .flatMap((m) => m.content.filter((b) => b['type'] === 'tool_result'))
    .map((b) => String(b['content']));
}

async function runStep(url: string, contextManagement?: ContextManagement) {
  const llm = anthropicLlmClient({ apiKey: 'offline', baseURL: url });
  const base = stepInput();
  const input = {
    ...base,
    model: { ...base.model, maxTurnsPerStep: 20, ...(contextManagement ? { contextManagement } : {}) },
  };
  return runQueryStep({ llm, log: () => {}, keepAliveMs: 600_000 }, input, recordingCtx());
}

test('the default collapses older turns on the wire and keeps the transcript whole', async () => {
  await withCapture(12, async (url, seen) => {
    const out = await runStep(url);
    assert.deepEqual(out.output, GOOD_ANSWER);
    const last = seen.at(-1)!.body;
    assert.deepEqual(
      results(seen.at(-1)!).map((t) => t.split('\n')[0]),
      ['8-001', '9-001', '10-001', '11-001'],
      'the newest four turns are sent whole',
    );
    const digest = last.messages[0]!.content.map((b) => String(b['text'] ?? '')).join('\n');
    assert.match(digest, /- turn 1\.0: bash `seq -w 1 400 \| sed s\/\^\/0-\/` \(2,400 characters\)/);
    assert.equal(digest.split('\n').filter((l) => l.startsWith('- turn ')).length, 8);
    const breakpoints = JSON.stringify(last).split('"cache_control"').length - 1;
    assert.ok(breakpoints <= 4, `${breakpoints} breakpoints`);
    const transcript = JSON.parse(readFileSync(out.transcript.path, 'utf8')) as Seen['body'];
    assert.equal(
      transcript.messages.filter((m) => m.role === 'assistant').length,
      13,
      'the transcript keeps every turn',
    );
  });
});

test('mask sends older results as placeholders and keeps the transcript whole', async () => {
  await withCapture(12, async (url, seen) => {
    const out = await runStep(url, { ...DEFAULT_CONTEXT_MANAGEMENT, strategy: 'mask' });
    assert.deepEqual(out.output, GOOD_ANSWER);
    const last = results(seen.at(-1)!);
    assert.equal(last.length, 12);
    const masked = last.filter((t) => t.startsWith('[Output of'));
    assert.equal(masked.length, 8, 'one chunk of 8; the newest 4 stay whole');
    assert.match(
      masked[0]!,
      /^\[Output of bash `seq -w 1 400 \| sed s\/\^\/0-\/` left out \(2,400 characters, 401 lines\)/,
    );
    assert.deepEqual(
      last.slice(8).map((t) => t.split('\n')[0]),
      ['8-001', '9-001', '10-001', '11-001'],
    );
    assert.equal(seen.at(-1)!.headers['anthropic-beta'], undefined);
    const breakpoints = JSON.stringify(seen.at(-1)!.body).split('"cache_control"').length - 1;
    assert.ok(breakpoints <= 4, `${breakpoints} breakpoints`);
    const transcript = JSON.parse(readFileSync(out.transcript.path, 'utf8')) as Seen['body'];
    assert.ok(
      transcript.messages.flatMap((m) => m.content).every((b) => !String(b['content'] ?? '').startsWith('[Output of')),
      'the transcript holds every output whole',
    );
  });
});

test("api-clear sends the API's context editing with its beta header and every result whole", async () => {
  await withCapture(6, async (url, seen) => {
    await runStep(url, { ...DEFAULT_CONTEXT_MANAGEMENT, strategy: 'api-clear' });
    const last = seen.at(-1)!;
    assert.equal(last.headers['anthropic-beta'], CONTEXT_MANAGEMENT_BETA);
    assert.equal(
      (last.body['context_management'] as { edits: Array<{ type: string }> }).edits[0]?.type,
      'clear_tool_uses_20250919',
    );
    assert.ok(results(last).every((t) => !t.startsWith('[Output of')));
  });
});

test('none sends everything whole', async () => {
  await withCapture(9, async (url, seen) => {
    await runStep(url, { ...DEFAULT_CONTEXT_MANAGEMENT, strategy: 'none' });
    assert.ok(results(seen.at(-1)!).every((t) => !t.startsWith('[Output of')));
    assert.equal(seen.at(-1)!.body['context_management'], undefined);
  });
});
