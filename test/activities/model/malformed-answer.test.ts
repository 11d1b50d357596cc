/**
 * An HTTP 200 whose body is not a Messages API answer (HTML from a proxy, a cut-off
 * body, JSON of another shape) is a transient fault of the endpoint: retried a few
 * times within the step, then a clear non-retryable failure quoting a redacted,
 * capped excerpt, never an INTERNAL_ERROR. Credentials in the base URL never show.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { QueryStepOutput } from '../../../src/contracts/activities.js';
import { AgentError } from '../../../src/contracts/errors.js';
import { anthropicLlmClient, splitBaseUrl } from '../../../src/activities/model/anthropic-llm-client.js';
import { redactorForEnv } from '../../../src/activities/edge/secret-redactor.js';
import { runQueryStep } from '../../../src/activities/model/query-step.js';
import { createModelServer } from '../../../src/dev/model-server/model-server.js';
import type { SessionRule } from '../../../src/dev/model-server/session-script.js';
import { GOOD_ANSWER, recordingCtx, stepInput } from './step-fixtures.js';

const CANARY_KEY = 'canary-model-key-MALFORMED-7781';
const CANARY_PASS = 'canary-url-pass-4417';

async function runAgainst(
  rules: SessionRule[],
  userinfo = false,
): Promise<{ output?: QueryStepOutput; error?: unknown; requests: number }> {
  const server = await createModelServer({ session: { name: 'malformed', rules } });
  try {
    const baseURL = userinfo ? server.url.replace('://', `://proxyuser:${CANARY_PASS}@`) : server.url;
    const env = { ANTHROPIC_API_KEY: CANARY_KEY, ANTHROPIC_BASE_URL: baseURL };
    const llm = anthropicLlmClient({ apiKey: CANARY_KEY, baseURL, redact: redactorForEnv(env), malformedPauseMs: 10 });
    const outcome: { output?: QueryStepOutput; error?: unknown } = await runQueryStep(
      { llm, log: () => {} },
      stepInput(),
      recordingCtx(),
    ).then(
      (output) => ({ output }),
      (error: unknown) => ({ error }),
    );
    return { ...outcome, requests: server.stats().requests };
  } finally {
    await server.close();
  }
}

const HTML = `<html><body>502 Bad Gateway: upstream said x-api-key: ${CANARY_KEY} via http://proxyuser:${CANARY_PASS}@proxy</body></html>${'.'.repeat(2000)}`;

test('a malformed 200 every time: 3 attempts, then MODEL_RESPONSE_MALFORMED, not retryable, redacted excerpt', async () => {
  const { error, requests } = await runAgainst([{ id: 'html', when: {}, respond: { rawBody: HTML } }], true);
  assert.ok(AgentError.isInstance(error), `not an AgentError: ${String(error)}`);
  assert.equal(error.code, 'MODEL_RESPONSE_MALFORMED');
  assert.equal(error.retryable, false);
  assert.equal(requests, 3, 'bounded: three attempts within the step');
  assert.match(error.message, /HTTP 200 with a malformed body: the body is not JSON/);
  assert.match(error.message, /502 Bad Gateway/, 'the message quotes what was received');
  assert.match(error.message, /gave up after 3 attempts/);
  const everything = JSON.stringify({ message: error.message, details: error.details });
  assert.ok(!everything.includes(CANARY_KEY), 'the model key is redacted');
  assert.ok(!everything.includes(CANARY_PASS), 'the base URL password is redacted');
  assert.ok(((error.details?.['excerpt'] as string) ?? '').length < 400, 'the excerpt is capped');
});

test('a malformed 200 once, then a good answer: the step succeeds on the next attempt', async () => {
  const { output, error, requests } = await runAgainst([
    { id: 'cut-off', when: {}, times: 1, respond: { rawBody: '{"id":"msg_1","type":"message","content":[{"ty' } },
    { id: 'good', when: {}, respond: { json: GOOD_ANSWER } },
  ]);
  assert.equal(error, undefined, String(error));
  assert.deepEqual(output?.output, GOOD_ANSWER);
  assert.equal(requests, 2);
});

test('JSON of the wrong shape is malformed too (not a TypeError inside the step loop)', async () => {
  for (const body of ['{"type":"message"}', '{"content":"text","usage":{}}', '[]', '{"content":[{"text":1}]}']) {
    const { error, requests } = await runAgainst([{ id: 'shape', when: {}, respond: { rawBody: body } }]);
    assert.ok(AgentError.isInstance(error), `not an AgentError for ${body}: ${String(error)}`);
    assert.equal(error.code, 'MODEL_RESPONSE_MALFORMED', body);
    assert.equal(requests, 3, body);
  }
});

test('credentials in the base URL become a Basic auth header and leave the URL', () => {
  const split = splitBaseUrl(`http://proxyuser:${CANARY_PASS}@127.0.0.1:8787/`);
  assert.equal(split.url, 'http://127.0.0.1:8787/');
  assert.equal(split.headers['authorization'], `Basic ${Buffer.from(`proxyuser:${CANARY_PASS}`).toString('base64')}`);
  assert.deepEqual(splitBaseUrl('http://127.0.0.1:8787').headers, {});
});

test('an unreachable base URL with credentials: the failure names the endpoint without them', async () => {
  const baseURL = `http://proxyuser:${CANARY_PASS}@127.0.0.1:9`;
  const llm = anthropicLlmClient({ apiKey: CANARY_KEY, baseURL });
  const error = await runQueryStep({ llm, log: () => {} }, stepInput(), recordingCtx()).then(
    () => assert.fail('expected a failure'),
    (e: unknown) => e,
  );
  assert.ok(AgentError.isInstance(error));
  assert.equal(error.code, 'MODEL_UNAVAILABLE');
  assert.match(error.message, /127\.0\.0\.1:9/);
  assert.ok(!error.message.includes(CANARY_PASS), error.message);
});
