import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AgentError } from '../../../src/contracts/errors.js';
import {
  anthropicLlmClient,
  createAnthropicLlmClient,
  preloadAnthropicSdk,
} from '../../../src/activities/model/anthropic-llm-client.js';
import type { LlmRequest } from '../../../src/activities/model/llm-client.js';
import { parseRetryAfterMs } from '../../../src/activities/model/model-errors.js';
import { runQueryStep } from '../../../src/activities/model/query-step.js';
import { createModelServer } from '../../../src/dev/model-server/model-server.js';
import type { RuleRespond } from '../../../src/dev/model-server/session-script.js';
import { recordingCtx, stepInput } from './step-fixtures.js';

async function failWith(respond: RuleRespond): Promise<{ error: AgentError; requests: number }> {
  const server = await createModelServer({ session: { name: 'err', rules: [{ id: 'e', when: {}, respond }] } });
  try {
    const deps = { llm: anthropicLlmClient({ apiKey: 'sk-ant-tsecret1', baseURL: server.url }), log: () => {} };
    const error = await runQueryStep(deps, stepInput(), recordingCtx()).then(
      () => assert.fail('expected a failure'),
      (e: unknown) => e,
    );
    assert.ok(AgentError.isInstance(error), `not an AgentError: ${String(error)}`);
    assert.doesNotMatch(error.message, /sk-ant-tsecret1/);
    return { error, requests: server.stats().requests };
  } finally {
    await server.close();
  }
}

test('429 with retry-after: 2 → MODEL_RATE_LIMITED, retryable, retryAfterMs >= 2000', async () => {
  const { error, requests } = await failWith({
    error: { status: 429, type: 'rate_limit_error', message: 'slow down', headers: { 'retry-after': '2' } },
  });
  assert.equal(error.code, 'MODEL_RATE_LIMITED');
  assert.equal(error.retryable, true);
  assert.ok((error.details?.['retryAfterMs'] as number) >= 2000);
  assert.equal(requests, 1, 'SDK retries are off');
});

test('429 spend limit → MODEL_SPEND_LIMIT, not retryable', async () => {
  const { error } = await failWith({
    error: {
      status: 429,
      type: 'rate_limit_error',
      message: 'You have reached your specified workspace API usage limits (spend limit).',
    },
  });
  assert.equal(error.code, 'MODEL_SPEND_LIMIT');
  assert.equal(error.retryable, false);
});

test('401 → MODEL_AUTH immediately, one request, message says what to check', async () => {
  const { error, requests } = await failWith({
    error: { status: 401, type: 'authentication_error', message: 'invalid x-api-key' },
  });
  assert.equal(error.code, 'MODEL_AUTH');
  assert.equal(error.retryable, false);
  assert.match(error.message, /ANTHROPIC_API_KEY/);
  assert.match(error.message, /ANTHROPIC_BASE_URL/);
  assert.equal(requests, 1);
});

test('529, 500, a reset connection → MODEL_UNAVAILABLE retryable; 400/404 → MODEL_REQUEST_INVALID', async () => {
  for (const status of [529, 500, 503]) {
    const { error, requests } = await failWith({ error: { status, type: 'overloaded_error', message: 'busy' } });
    assert.equal(error.code, 'MODEL_UNAVAILABLE');
    assert.equal(error.retryable, true);
    assert.equal(requests, 1);
  }
  const reset = await failWith({ reset: true });
  assert.equal(reset.error.code, 'MODEL_UNAVAILABLE');
  assert.equal(reset.error.retryable, true);
  const bad = await failWith({
    error: { status: 400, type: 'invalid_request_error', message: 'max_tokens: too large' },
  });
  assert.equal(bad.error.code, 'MODEL_REQUEST_INVALID');
  assert.equal(bad.error.retryable, false);
  const missing = await failWith({ error: { status: 404, type: 'not_found_error', message: 'model: nope' } });
  assert.equal(missing.error.code, 'MODEL_REQUEST_INVALID');
  assert.match(missing.error.message, /model name/);
});

test('a scripting gap (no rule matched) is loud', async () => {
  const server = await createModelServer({ session: { name: 'none', rules: [] } });
  try {
    const deps = { llm: anthropicLlmClient({ apiKey: 'x', baseURL: server.url }), log: () => {} };
    await assert.rejects(runQueryStep(deps, stepInput(), recordingCtx()), /no rule matched: .*turn=0/s);
  } finally {
    await server.close();
  }
});

test('retry-after parsing: ms header, seconds, HTTP date, garbage', () => {
  assert.equal(parseRetryAfterMs({ 'retry-after-ms': '1500', 'retry-after': '9' }), 1500);
  assert.equal(parseRetryAfterMs({ 'Retry-After': '2' }), 2000);
  const now = Date.parse('2026-01-01T00:00:00Z');
  assert.equal(parseRetryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now), 5000);
  assert.equal(parseRetryAfterMs({ 'retry-after': 'soon' }), undefined);
  assert.equal(parseRetryAfterMs(undefined), undefined);
});

test('the factory reads the env only there, and sends a placeholder key to an offline server', () => {
  assert.throws(() => createAnthropicLlmClient({}), { code: 'MODEL_AUTH' });
  assert.ok(createAnthropicLlmClient({ ANTHROPIC_BASE_URL: 'http://127.0.0.1:1' }));
});

const REQUEST: LlmRequest = {
  model: 'claude-test',
  max_tokens: 16,
  system: [],
  tools: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
};

test('the lazily imported SDK still maps its errors: unreachable → MODEL_UNAVAILABLE, abort → the reason', async () => {
  // A client is built before the SDK is loaded (the worker builds it on the first step).
  const llm = anthropicLlmClient({ apiKey: 'sk-ant-tsecret2', baseURL: 'http://127.0.0.1:1' });
  preloadAnthropicSdk();
  const unreachable = await llm.createMessage(REQUEST, { signal: new AbortController().signal }).then(
    () => assert.fail('expected a failure'),
    (e: unknown) => e,
  );
  assert.ok(AgentError.isInstance(unreachable), `not an AgentError: ${String(unreachable)}`);
  assert.equal(unreachable.code, 'MODEL_UNAVAILABLE');
  assert.equal(unreachable.retryable, true);
  assert.match(unreachable.message, /cannot reach the model endpoint/);
  const aborted = new AbortController();
  const reason = new Error('cancelled by the test');
  aborted.abort(reason);
  await assert.rejects(llm.createMessage(REQUEST, { signal: aborted.signal }), (e: unknown) => e === reason);
});
