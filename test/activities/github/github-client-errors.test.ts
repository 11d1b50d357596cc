import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AgentError } from '../../../src/contracts/errors.js';
import { toGitHubError } from '../../../src/activities/github/github-errors.js';
import { createGitHubClient } from '../../../src/activities/github/octokit-github-client.js';
import { startFakeGitHubServer } from '../../helpers/fake-github-server.js';

const TOKEN = 'ghp_clientFAKE_0123456789abcdef';

async function failure(run: () => Promise<unknown>): Promise<AgentError> {
  try {
    await run();
  } catch (error) {
    assert.ok(AgentError.isInstance(error), String(error));
    const all = JSON.stringify({
      m: error.message,
      d: error.describe(),
      details: error.details,
      w: error.where,
      s: error.stack,
      c: String(error.cause),
    });
    assert.ok(!all.includes(TOKEN), `token leaked: ${all}`);
    return error;
  }
  assert.fail('expected a failure');
}

test('status mapping: 401, 403, 404, 422, 500, 429 with retry-after, 403 rate limit with reset, network down', async () => {
  const server = await startFakeGitHubServer({ token: TOKEN });
  try {
    server.addIssue({ number: 1, title: 'x' });
    const client = createGitHubClient({ token: TOKEN, owner: 'acme', repo: 'widgets', baseUrl: server.url });
    assert.equal((await client.getRepo()).defaultBranch, 'main');

    const bad = await failure(() =>
      createGitHubClient({ token: `${TOKEN}x`, owner: 'acme', repo: 'widgets', baseUrl: server.url }).getIssue(1),
    );
    assert.deepEqual([bad.code, bad.retryable, bad.where], ['GITHUB_AUTH', false, 'GITHUB_TOKEN']);
    assert.match(bad.message, /check GITHUB_TOKEN/);

    server.failNext(/issues\/1$/, 403, {}, { message: 'Resource not accessible by integration' });
    const forbidden = await failure(() => client.getIssue(1));
    assert.deepEqual([forbidden.code, forbidden.retryable], ['GITHUB_AUTH', false]);
    assert.match(forbidden.message, /lacks a permission/);

    const missing = await failure(() => client.getIssue(42));
    assert.deepEqual([missing.code, missing.retryable, missing.details?.['status']], ['GITHUB_REQUEST', false, 404]);
    assert.match(missing.message, /issue acme\/widgets#42 not found/);

    server.failNext(
      /pulls$/,
      422,
      {},
      { message: 'Validation Failed', errors: [{ message: 'No commits between main and x' }] },
    );
    const invalid = await failure(() => client.createPullRequest({ title: 't', head: 'x', base: 'main', body: '' }));
    assert.equal(invalid.code, 'GITHUB_REQUEST');
    assert.match(invalid.message, /Validation Failed: No commits between main and x/);

    server.failNext(/issues\/1$/, 502, {}, { message: 'Bad Gateway' });
    const down = await failure(() => client.getIssue(1));
    assert.deepEqual([down.code, down.retryable], ['GITHUB_UNAVAILABLE', true]);

    server.failNext(/issues\/1$/, 429, { 'retry-after': '7' }, { message: 'Too many requests' });
    const slow = await failure(() => client.getIssue(1));
    assert.deepEqual([slow.code, slow.retryable, slow.details?.['retryAfterMs']], ['GITHUB_RATE_LIMITED', true, 7000]);
  } finally {
    await server.close();
  }
  const offline = await failure(() =>
    createGitHubClient({ token: TOKEN, owner: 'acme', repo: 'widgets', baseUrl: server.url }).getIssue(1),
  );
  assert.deepEqual([offline.code, offline.retryable], ['GITHUB_UNAVAILABLE', true]);
});

test('toGitHubError: x-ratelimit-reset in the past → at least a second; a token echoed by the server is redacted', () => {
  const error = toGitHubError(
    {
      status: 403,
      message: 'x',
      response: {
        headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '100' },
        data: { message: `limit for ${TOKEN}` },
      },
    },
    { operation: 'GET /x', resource: 'thing', token: TOKEN, now: () => 200_000 },
  );
  assert.equal(error.code, 'GITHUB_RATE_LIMITED');
  assert.equal(error.details?.['retryAfterMs'], 1000);
  assert.ok(!error.message.includes(TOKEN));
  assert.match(error.message, /\[REDACTED\]/);
});
