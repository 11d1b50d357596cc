/**
 * The cache key of an accepted agent-written setup (agent-setup-cache.ts): the repository's
 * root commits and its manifests and lockfiles of any ecosystem; the same in every clone,
 * a new key when a lockfile changes, the same when only code changes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  agentSetupKey,
  isLockfileName,
  keepSetup,
  readCachedSetup,
  repositoryFacts,
} from '../../../src/activities/environment/agent-setup-cache.js';
import { makeRepo, tempDir } from '../model/step-fixtures.js';

test('manifests and lockfiles of any ecosystem; not code', () => {
  for (const name of [
    'package-lock.json',
    'Cargo.lock',
    'Gemfile.lock',
    'mix.lock',
    'flake.lock',
    'bun.lockb',
    'composer.json',
    'requirements-dev.txt',
    'Makefile',
    'app.cabal',
    'cpanfile.lock',
  ])
    assert.equal(isLockfileName(name), true, name);
  for (const name of ['sum.js', 'README.md', 'blocker.py', 'clock.c', 'test.sh'])
    assert.equal(isLockfileName(name), false, name);
});

test('the key: order-free, changes with a lockfile or the repository, not with a clone', () => {
  const facts = {
    identity: 'github.com/owner/name',
    roots: ['a1'],
    lockfiles: [
      { path: 'Gemfile.lock', blob: 'b1' },
      { path: 'Gemfile', blob: 'b2' },
    ],
  };
  const key = agentSetupKey(facts);
  assert.equal(agentSetupKey({ ...facts, lockfiles: [...facts.lockfiles].reverse() }), key);
  assert.notEqual(
    agentSetupKey({ ...facts, lockfiles: [{ path: 'Gemfile.lock', blob: 'b3' }, facts.lockfiles[1]!] }),
    key,
  );
  assert.notEqual(agentSetupKey({ ...facts, roots: ['a2'] }), key);
  // A fork has the same commits and lockfiles: its agent's setup is not the upstream's.
  assert.notEqual(agentSetupKey({ ...facts, identity: 'github.com/fork/name' }), key);
});

test('a clone finds what its origin kept; a code change keeps the key, a lockfile change does not', async () => {
  const origin = makeRepo();
  const env = { ISSUE_AGENT_STATE_DIR: tempDir('setup-cache-state-') };
  await keepSetup(origin, { setup: ['./bootstrap'], test: 'prove -r t' }, env);
  const clone = path.join(tempDir('setup-cache-clone-'), 'repo');
  execFileSync('git', ['clone', '-q', origin, clone]);
  assert.deepEqual(await readCachedSetup(clone, env), { setup: ['./bootstrap'], test: 'prove -r t' });
  const commit = (file: string, text: string): void => {
    writeFileSync(path.join(clone, file), text);
    execFileSync('git', ['add', '.'], { cwd: clone });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', file], { cwd: clone });
  };
  commit('sum.js', 'export const sum = (a, b) => a + b;\n');
  assert.ok(await readCachedSetup(clone, env), 'code is not part of the key');
  commit('Gemfile.lock', 'GEM\n');
  assert.equal(await readCachedSetup(clone, env), undefined);
  assert.equal(await repositoryFacts(tempDir('not-a-repo-')), undefined);
});

test("a fork (same commits and lockfiles, another origin) does not find the upstream's setup", async () => {
  const upstream = makeRepo();
  const env = { ISSUE_AGENT_STATE_DIR: tempDir('setup-cache-state-') };
  await keepSetup(upstream, { setup: ['./bootstrap'], test: 'prove -r t' }, env);
  const fork = path.join(tempDir('setup-cache-fork-'), 'repo');
  execFileSync('git', ['clone', '-q', upstream, fork]);
  execFileSync('git', ['remote', 'set-url', 'origin', 'https://github.com/someone-else/repo.git'], { cwd: fork });
  assert.equal(await readCachedSetup(fork, env), undefined);
});
