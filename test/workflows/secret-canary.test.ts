/**
 * Secrets never reach what is persisted. A real run with canary values for the model
 * key and the GitHub token and a base URL carrying credentials (a proxy with Basic
 * auth), where the endpoint echoes them in a 500 (which lands in history as an
 * activity failure) and the model quotes them in its text (which lands in the
 * transcript): no canary is in the fetched history or in any artifact file.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_DIR } from '../../src/dev/sample-repo.js';
import { loadSessionScript, type SessionRule } from '../../src/dev/model-server/session-script.js';
import { runScenario } from '../helpers/run-scenario.js';
import { teardownEnv } from '../helpers/temporal-env.js';

after(teardownEnv);

const KEY = 'canary-model-key-HISTORY-5521';
const TOKEN = 'canary-github-token-HISTORY-7733';
const PASS = 'canary-proxy-pass-9912';
const CANARIES = [KEY, TOKEN, PASS, Buffer.from(`proxyuser:${PASS}`).toString('base64')];

/** History with every payload's bytes decoded, so a canary inside one is found. */
function decoded(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  if (Array.isArray(value)) return value.map(decoded);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decoded(v)]));
  return value;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

test('no canary secret in workflow history or artifacts', { timeout: 240_000 }, async () => {
  const demo = loadSessionScript(join(DEMO_DIR, 'session.json'));
  const echoingFault: SessionRule = {
    id: 'echoing-proxy-fault',
    when: { turn: 0 },
    times: 1,
    respond: {
      error: {
        status: 500,
        type: 'api_error',
        message: `proxy error for x-api-key ${KEY} via http://proxyuser:${PASS}@proxy.internal token=${TOKEN}`,
      },
    },
  };
  const rules = demo.rules.map((r, i) =>
    i === 0 ? { ...r, respond: { ...r.respond, text: `My key is ${KEY}; the proxy is proxyuser:${PASS}.` } } : r,
  );
  const artifactsDir = await mkdtemp(join(tmpdir(), 'canary-artifacts-'));
  const { result, handle } = await runScenario({
    session: { ...demo, rules: [echoingFault, ...rules] },
    input: { artifactsDir },
    workerEnv: (url) => ({
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ANTHROPIC_API_KEY: KEY,
      GITHUB_TOKEN: TOKEN,
      ANTHROPIC_BASE_URL: url.replace('://', `://proxyuser:${PASS}@`),
    }),
  });
  assert.equal(result.outcome, 'success', result.reason);

  const history = JSON.stringify(decoded(await handle.fetchHistory()));
  assert.match(history, /proxy error for x-api-key/, 'the echoing fault is in history (so the check can fail)');
  assert.match(history, /\[REDACTED\]/);
  for (const canary of CANARIES) assert.ok(!history.includes(canary), `history holds ${canary}`);

  const files = await filesUnder(artifactsDir);
  assert.ok(
    files.some((f) => f.includes('transcript')),
    'transcripts were written',
  );
  let quoted = false;
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    if (text.includes('My key is [REDACTED]')) quoted = true;
    for (const canary of CANARIES) assert.ok(!text.includes(canary), `${file} holds ${canary}`);
  }
  assert.ok(quoted, "the model's quote of the key was written, redacted");
});
