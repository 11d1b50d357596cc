import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { AgentError } from '../../../src/contracts/errors.js';
import { gitHubSettingsFromEnv, parseGitHubRemote } from '../../../src/activities/github/github-settings.js';
import { makeTempGitRepo } from '../../helpers/temp-git-repo.js';

const TOKEN = 'ghp_settingsFAKE_0123456789';

test('parseGitHubRemote: https, ssh and scp-like forms; local paths are not GitHub', () => {
  const expected = { owner: 'acme', repo: 'widgets' };
  assert.deepEqual(parseGitHubRemote('https://github.com/acme/widgets.git'), expected);
  assert.deepEqual(parseGitHubRemote('https://github.com/acme/widgets'), expected);
  assert.deepEqual(parseGitHubRemote('https://x-access-token:abc@github.com/acme/widgets.git/'), expected);
  assert.deepEqual(parseGitHubRemote('git@github.com:acme/widgets.git'), expected);
  assert.deepEqual(parseGitHubRemote('ssh://git@github.com/acme/widgets.git'), expected);
  assert.deepEqual(parseGitHubRemote('ssh://git@ghe.example.com:2222/acme/widgets'), expected);
  assert.deepEqual(parseGitHubRemote('git@github.com:acme/my.repo-1.git'), { owner: 'acme', repo: 'my.repo-1' });
  assert.equal(parseGitHubRemote('/tmp/remote.git'), undefined);
  assert.equal(parseGitHubRemote('file:///tmp/remote.git'), undefined);
  assert.equal(parseGitHubRemote('https://github.com/acme'), undefined);
});

test('gitHubSettingsFromEnv: GITHUB_REPOSITORY wins; else the origin remote; API URL default; token hidden from printing', async () => {
  const repo = await makeTempGitRepo({});
  try {
    await repo.git('remote', 'add', 'origin', 'https://github.com/octo/from-remote.git');
    const fromRemote = await gitHubSettingsFromEnv({ GITHUB_TOKEN: TOKEN }, repo.dir);
    assert.deepEqual({ ...fromRemote }, { baseUrl: 'https://api.github.com', owner: 'octo', repo: 'from-remote' });
    assert.equal(fromRemote.token, TOKEN);
    assert.ok(
      !JSON.stringify(fromRemote).includes(TOKEN) && !inspect(fromRemote).includes(TOKEN),
      'token is not serialised',
    );

    const explicit = await gitHubSettingsFromEnv(
      { GITHUB_TOKEN: ` ${TOKEN} `, GITHUB_REPOSITORY: 'acme/widgets', GITHUB_API_URL: 'http://127.0.0.1:9/api/' },
      repo.dir,
    );
    assert.deepEqual({ ...explicit }, { baseUrl: 'http://127.0.0.1:9/api', owner: 'acme', repo: 'widgets' });
    assert.equal(explicit.token, TOKEN);
  } finally {
    await repo.cleanup();
  }
});

test('gitHubSettingsFromEnv: clear errors for a missing token, a bad GITHUB_REPOSITORY, an undeducible remote', async () => {
  const repo = await makeTempGitRepo({});
  try {
    await assert.rejects(
      gitHubSettingsFromEnv({ GITHUB_REPOSITORY: 'acme/widgets' }, repo.dir),
      (e: unknown) =>
        AgentError.isInstance(e) &&
        e.code === 'GITHUB_AUTH' &&
        e.where === 'GITHUB_TOKEN' &&
        /GITHUB_TOKEN is not set/.test(e.message),
    );
    await assert.rejects(
      gitHubSettingsFromEnv({ GITHUB_TOKEN: TOKEN, GITHUB_REPOSITORY: 'acme' }, repo.dir),
      (e: unknown) => AgentError.isInstance(e) && e.code === 'CONFIG_INVALID' && e.where === 'GITHUB_REPOSITORY',
    );
    await assert.rejects(gitHubSettingsFromEnv({ GITHUB_TOKEN: TOKEN }, repo.dir), /has no origin remote/);
    await repo.git('remote', 'add', 'origin', `https://user:${TOKEN}@example.com/only-one-part`);
    await assert.rejects(
      gitHubSettingsFromEnv({ GITHUB_TOKEN: TOKEN }, repo.dir),
      (e: unknown) => AgentError.isInstance(e) && /could not be derived/.test(e.message) && !e.message.includes(TOKEN),
    );
    await assert.rejects(
      gitHubSettingsFromEnv({ GITHUB_TOKEN: TOKEN, GITHUB_REPOSITORY: 'a/b', GITHUB_API_URL: 'ftp://x' }, repo.dir),
      (e: unknown) => AgentError.isInstance(e) && e.where === 'GITHUB_API_URL',
    );
  } finally {
    await repo.cleanup();
  }
});
