/**
 * Each repository has caches of its own unless the operator shares them; clones of one
 * repository (the same origin, in any URL form) are one repository; a bad scope value is
 * a clear error naming the variable.
 */
import assert from 'node:assert/strict';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { execa } from 'execa';
import { makeTempGitRepo } from '../../helpers/temp-git-repo.js';
import { cacheLayout } from '../../../src/activities/environment/cache-layout.js';
import { normalizeRemoteUrl, repositoryIdentity } from '../../../src/activities/environment/repository-identity.js';
import { AgentError } from '../../../src/contracts/errors.js';

const STATE = { ISSUE_AGENT_STATE_DIR: '/state' };

test("two repositories' caches are apart by default; the fetched tools are the worker's", () => {
  const a = cacheLayout('/work/a', STATE);
  const b = cacheLayout('/work/b', STATE);
  for (const key of ['npm', 'pip', 'cargoHome', 'goMod', 'mavenRepo', 'stamps', 'root'] as const)
    assert.notEqual(a[key], b[key], key);
  assert.equal(a.tools, b.tools);
  assert.ok(!a.tools.startsWith(`${a.root}/`), 'tools are outside the repository root');
});

test('ISSUE_AGENT_CACHE_SCOPE=worker shares one set; a bad value names the variable and the choices', () => {
  const env = { ...STATE, ISSUE_AGENT_CACHE_SCOPE: 'worker' };
  assert.equal(cacheLayout('/work/a', env).npm, cacheLayout('/work/b', env).npm);
  assert.throws(
    () => cacheLayout('/work/a', { ...STATE, ISSUE_AGENT_CACHE_SCOPE: 'everyone' }),
    (e: unknown) =>
      AgentError.isInstance(e) && /ISSUE_AGENT_CACHE_SCOPE="everyone"/.test(e.message) && e.code === 'CONFIG_INVALID',
  );
});

test('the forms of one remote URL are one repository; credentials never count', () => {
  const forms = [
    'git@github.com:owner/name.git',
    'https://github.com/owner/name',
    'https://x-access-token:ghp_fake@GitHub.com/owner/name.git/',
    'ssh://git@github.com/owner/name.git',
  ];
  for (const form of forms) assert.equal(normalizeRemoteUrl(form), 'github.com/owner/name', form);
  assert.notEqual(normalizeRemoteUrl('https://github.com/fork/name'), 'github.com/owner/name');
  assert.equal(normalizeRemoteUrl('/srv/git/origin.git'), '/srv/git/origin');
  assert.equal(normalizeRemoteUrl('file:///srv/git/origin.git'), '/srv/git/origin');
});

test('a worktree is its repository; a clone is its origin; a repository without one is its path', async () => {
  const repo = await makeTempGitRepo({ files: { 'a.txt': 'a\n' } });
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'identity-'));
  try {
    assert.equal(await repositoryIdentity(repo.dir), path.resolve(repo.dir));
    const tree = path.join(scratch, 'wt');
    await repo.git('worktree', 'add', '--quiet', '--detach', tree, 'main');
    assert.equal(await repositoryIdentity(tree), await realpath(repo.dir));
    const clone = path.join(scratch, 'clone');
    await execa('git', ['clone', '-q', repo.dir, clone]);
    assert.equal(await repositoryIdentity(clone), path.resolve(repo.dir));
  } finally {
    await rm(scratch, { recursive: true, force: true });
    await repo.cleanup();
  }
});
