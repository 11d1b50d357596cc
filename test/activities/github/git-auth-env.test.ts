import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execa } from 'execa';
import { gitAuthConfigEnv, remoteGitEnv, tokenOrigin } from '../../../src/activities/github/git-auth-env.js';
import { redactSecret } from '../../../src/activities/edge/secret-redactor.js';

const TOKEN = 'ghp_gitAuthFAKE_0123456789';

test('the token is offered only to https remotes on the API host', () => {
  assert.equal(tokenOrigin('https://github.com/acme/widgets.git', 'https://api.github.com'), 'https://github.com');
  assert.equal(
    tokenOrigin('https://ghe.example.com/acme/widgets.git', 'https://ghe.example.com/api/v3'),
    'https://ghe.example.com',
  );
  assert.equal(
    tokenOrigin('http://github.com/acme/widgets.git', 'https://api.github.com'),
    undefined,
    'never over plain http',
  );
  assert.equal(
    tokenOrigin('https://evil.example/acme/widgets.git', 'https://api.github.com'),
    undefined,
    'never to another host',
  );
  assert.equal(
    tokenOrigin('git@github.com:acme/widgets.git', 'https://api.github.com'),
    undefined,
    'ssh uses its own keys',
  );
  assert.equal(tokenOrigin('/tmp/remote.git', 'https://api.github.com'), undefined);
});

test('remoteGitEnv: secrets scrubbed, auth header through GIT_CONFIG_* (not argv), appended after existing entries; git reads it', async () => {
  const parent = {
    PATH: process.env['PATH'] ?? '',
    GITHUB_TOKEN: TOKEN,
    ANTHROPIC_API_KEY: 'sk-x',
    SSH_AUTH_SOCK: '/tmp/agent.sock',
    GIT_TRACE_CURL: '1',
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'core.askPass',
    GIT_CONFIG_VALUE_0: '',
  };
  const env = remoteGitEnv(parent, 'https://github.com/acme/widgets.git', {
    token: TOKEN,
    apiBaseUrl: 'https://api.github.com',
  });
  assert.equal(env['GITHUB_TOKEN'], undefined);
  assert.equal(env['ANTHROPIC_API_KEY'], undefined);
  assert.equal(env['GIT_TRACE_CURL'], undefined);
  assert.equal(env['SSH_AUTH_SOCK'], '/tmp/agent.sock');
  assert.equal(env['GIT_TERMINAL_PROMPT'], '0');
  assert.equal(env['GIT_CONFIG_COUNT'], '2');
  assert.equal(env['GIT_CONFIG_KEY_1'], 'http.https://github.com/.extraheader');
  const header = env['GIT_CONFIG_VALUE_1'] ?? '';
  assert.equal(header, `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${TOKEN}`).toString('base64')}`);
  assert.equal(redactSecret(header, TOKEN), 'AUTHORIZATION: [REDACTED]');

  const seen = await execa('git', ['config', '--get', 'http.https://github.com/.extraheader'], {
    env,
    extendEnv: false,
  });
  assert.equal(seen.stdout, header, 'git picks the header up from the environment');

  const none = remoteGitEnv(parent, 'git@github.com:acme/widgets.git', {
    token: TOKEN,
    apiBaseUrl: 'https://api.github.com',
  });
  assert.ok(
    !JSON.stringify(none).includes(Buffer.from(`x-access-token:${TOKEN}`).toString('base64')) &&
      !JSON.stringify(none).includes(TOKEN),
  );
  assert.deepEqual(gitAuthConfigEnv('https://h', TOKEN, {})['GIT_CONFIG_COUNT'], '1');
});

test('redactSecret: plain, URL-encoded, base64 and URL credentials', () => {
  const tricky = 'ghp_a/b+c=d';
  const text = `t=${tricky} u=${encodeURIComponent(tricky)} b=${Buffer.from(`x-access-token:${tricky}`).toString('base64')} url=https://someone:pw@github.com/x`;
  const out = redactSecret(text, tricky);
  assert.equal(out, 't=[REDACTED] u=[REDACTED] b=[REDACTED] url=https://[REDACTED]@github.com/x');
});
