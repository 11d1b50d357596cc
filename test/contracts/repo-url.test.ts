/**
 * Git URLs as --repo: told apart from paths, stripped of credentials before they go
 * anywhere, and spelled one way for the run's identity.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  hasCredentials,
  isRepoUrl,
  normaliseRepoUrl,
  redactUrlCredentials,
  repoNameOfUrl,
  withoutCredentials,
} from '../../src/contracts/repo-url.js';

// Assembled at run time: no token-shaped literal in the repository.
const TOKEN = ['ghp', 'x'.repeat(36)].join('_');

test('URLs and scp-like addresses are URLs; paths are not', () => {
  for (const url of [
    'https://github.com/o/r.git',
    'ssh://git@host:22/o/r.git',
    'git@github.com:o/r.git',
    'file:///srv/git/r.git',
    'git://host/r',
  ])
    assert.equal(isRepoUrl(url), true, url);
  for (const path of ['/home/u/repo', './repo', 'repo', '../r:x', 'C:\\repos\\r', '/tmp/a:b'])
    assert.equal(isRepoUrl(path), false, path);
});

test('credentials are removed: the whole user part of http(s), the password elsewhere', () => {
  assert.equal(withoutCredentials(`https://x-access-token:${TOKEN}@github.com/o/r.git`), 'https://github.com/o/r.git');
  assert.equal(withoutCredentials(`https://${TOKEN}@github.com/o/r.git`), 'https://github.com/o/r.git');
  assert.equal(withoutCredentials('ssh://git:secret@host/r.git'), 'ssh://git@host/r.git');
  assert.equal(withoutCredentials('git@github.com:o/r.git'), 'git@github.com:o/r.git');
  assert.equal(withoutCredentials('file:///srv/r.git'), 'file:///srv/r.git');
  assert.equal(hasCredentials(`https://${TOKEN}@github.com/o/r.git`), true);
  assert.equal(hasCredentials('https://github.com/o/r.git'), false);
});

test('credentials in free text (git messages) are redacted', () => {
  const text = `fatal: unable to access 'https://u:${TOKEN}@github.com/o/r.git/': 403`;
  const redacted = redactUrlCredentials(text);
  assert.ok(!redacted.includes(TOKEN), redacted);
  assert.match(redacted, /https:\/\/github\.com\/o\/r\.git/);
});

test('one spelling per repository; the name is the last path component', () => {
  const a = normaliseRepoUrl('HTTPS://GitHub.com/Owner/Repo.git/');
  const b = normaliseRepoUrl(`https://${TOKEN}@github.com/Owner/Repo`);
  assert.equal(a, b);
  assert.equal(a, 'https://github.com/Owner/Repo');
  assert.equal(repoNameOfUrl('git@github.com:o/widgets.git'), 'widgets');
  assert.equal(repoNameOfUrl('file:///tmp/x/sample.git'), 'sample');
});
