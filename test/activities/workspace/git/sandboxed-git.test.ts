/**
 * Which harness git calls run in the agent's sandbox: those whose cwd lies in a git work
 * tree the harness gave a private HOME, nested repositories included; a plain directory
 * with a HOME (a command once ran in /tmp) captures nothing under it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { agentWorktreeOf } from '../../../../src/activities/workspace/git/sandboxed-git.js';
import { ensureAgentHome, removeAgentSandbox } from '../../../../src/activities/workspace/sandbox-state.js';

test('a worktree with an agent HOME captures its subdirectories and nested repositories, a plain dir does not', async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'sandboxed-git-'));
  const plain = path.join(root, 'plain');
  const repo = path.join(plain, 'repo');
  const nested = path.join(repo, 'vendor', 'lib');
  mkdirSync(nested, { recursive: true });
  execFileSync('git', ['init', '-q', repo]);
  execFileSync('git', ['init', '-q', nested]);
  try {
    await ensureAgentHome(plain);
    assert.equal(agentWorktreeOf(repo), undefined, 'a HOME on a plain parent dir captures nothing');
    await ensureAgentHome(repo);
    assert.equal(agentWorktreeOf(repo), repo);
    assert.equal(agentWorktreeOf(path.join(repo, 'vendor')), repo);
    assert.equal(agentWorktreeOf(nested), repo, 'a nested repository is walked past');
    assert.equal(agentWorktreeOf(path.join(repo, '.git')), repo);
  } finally {
    await removeAgentSandbox(plain);
    await removeAgentSandbox(repo);
    rmSync(root, { recursive: true, force: true });
  }
});
