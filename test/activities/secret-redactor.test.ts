/** The worker's redactor: env secrets in every spelling, key shapes, auth headers, URL userinfo. */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createArtifactStore } from '../../src/activities/artifacts/artifact-store.js';
import {
  createRedactor,
  redactDeep,
  redactedExcerpt,
  redactorForEnv,
} from '../../src/activities/edge/secret-redactor.js';

const env = {
  ANTHROPIC_API_KEY: 'canary-key-REDACT-1234',
  GITHUB_TOKEN: 'canary-token-REDACT-5678',
  ANTHROPIC_BASE_URL: 'http://proxyuser:canary%2Fpass-99@127.0.0.1:8787',
};
const redact = redactorForEnv(env);

test('env secrets in every spelling, URL userinfo and auth headers are redacted', () => {
  const b64 = Buffer.from(env.GITHUB_TOKEN).toString('base64');
  const text = `key=${env.ANTHROPIC_API_KEY} tok=${encodeURIComponent(env.GITHUB_TOKEN)} b64=${b64} pass=canary/pass-99 url=https://u:p@github.com/x Authorization: Bearer abcdef`;
  const out = redact(text);
  for (const s of [env.ANTHROPIC_API_KEY, env.GITHUB_TOKEN, b64, 'canary/pass-99', 'u:p@', 'abcdef'])
    assert.ok(!out.includes(s), `${s} left in ${out}`);
  assert.match(out, /url=https:\/\/\[REDACTED\]@github\.com\/x/);
  assert.equal(redact('nothing secret here'), 'nothing secret here');
});

test('key shapes and auth headers are redacted with no secret known (the model client errors use this redactor)', () => {
  const none = createRedactor([]);
  assert.equal(none('bad key sk-ant-fake01'), 'bad key [REDACTED]');
  assert.equal(none('x-api-key: abc123'), 'x-api-key: [REDACTED]');
  assert.equal(none('ghp_' + 'a'.repeat(24)), '[REDACTED]');
});

test('redactDeep reaches nested strings; excerpts are capped', () => {
  const value = redactDeep({ a: [{ b: `x ${env.ANTHROPIC_API_KEY}` }], n: 3 }, redact);
  assert.deepEqual(value, { a: [{ b: 'x [REDACTED]' }], n: 3 });
  assert.ok(redactedExcerpt('y'.repeat(5000), redact, 100).length < 130);
});

test('the artifact store writes redacted content and records', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'redact-store-'));
  const store = createArtifactStore(dir, { redact });
  const ref = await store.putJson('messages', [{ text: `the key is ${env.ANTHROPIC_API_KEY}` }]);
  await store.put('out', `token ${env.GITHUB_TOKEN}`);
  await store.writeRecord('latest', { note: env.GITHUB_TOKEN });
  assert.deepEqual(await store.readJson(ref), [{ text: 'the key is [REDACTED]' }]);
  assert.deepEqual(await store.readRecord('latest'), { note: '[REDACTED]' });
  assert.equal(await store.readRecord('absent'), undefined);
  for (const name of await readdir(dir)) {
    const text = await readFile(join(dir, name), 'utf8');
    assert.ok(!text.includes('canary-'), `${name}: ${text}`);
  }
});
