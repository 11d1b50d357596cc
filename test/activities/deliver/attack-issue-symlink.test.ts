/**
 * Delivering a local issue of a remote repository writes the issue's closing (its state
 * and comments, the agent's summary among them) into the issue file of the run's
 * worktree, on the host, as the worker. The agent can replace that tracked file with a
 * symlink to any file of the worker's (`~/.bashrc`, `~/.gitconfig`): the write must not
 * follow it. The state copy under the git dir exists already (the run's progress comment
 * made it), so nothing reads the link first.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { lstat, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type { BoundaryHookInput } from '../../../src/contracts/activities.js';
import { closeLocalIssueOnBranch } from '../../../src/activities/deliver/local-issue-on-branch.js';
import { createLocalIssueStore } from '../../../src/activities/issues/local-issue-store.js';
import { makeTempGitRepo } from '../../helpers/temp-git-repo.js';

const hostOnly = await mkdtemp(path.join(os.tmpdir(), 'issue-symlink-host-'));
after(() => rm(hostOnly, { recursive: true, force: true }));

/** The delivery's input for issue 1 of a worktree at `dir`, with the agent's summary. */
function closingOf(dir: string): BoundaryHookInput {
  return {
    workflowId: 'run',
    mode: 'local',
    repoPath: dir,
    worktreePath: dir,
    branch: 'main',
    baseBranch: 'main',
    issue: 1,
    closureAction: 'close',
    labels: { add: [], remove: [] },
    summary: 'echo pwned-by-the-agent',
    evidence: [],
  };
}

test('the closing of a local issue is never written through a symlink the agent planted', async () => {
  const repo = await makeTempGitRepo({
    files: { '.agent/issues/1.md': '---\ntitle: Fix it\nstate: open\n---\nThe body.\n' },
  });
  try {
    const victim = path.join(hostOnly, 'bashrc');
    await writeFile(victim, 'precious\n');
    const issues = createLocalIssueStore(repo.dir);
    await issues.comment(1, 'progress: working', { idempotencyKey: 'run:progress' });
    // The agent's `ln -sf` in its worktree.
    const issueFile = path.join(repo.dir, '.agent/issues/1.md');
    await rm(issueFile);
    await symlink(victim, issueFile);
    await closeLocalIssueOnBranch(issues, closingOf(repo.dir), 'delivered').catch(() => undefined);
    assert.equal(await readFile(victim, 'utf8'), 'precious\n', 'the host wrote the issue through the link');
    assert.ok((await lstat(issueFile)).isFile(), 'the link is replaced by the issue file');
    assert.match(await readFile(issueFile, 'utf8'), /state: closed/);
  } finally {
    await repo.cleanup();
  }
});

test('the closing of a local issue is never written into a directory the agent linked .agent/issues to', async () => {
  const repo = await makeTempGitRepo({
    files: { '.agent/issues/1.md': '---\ntitle: Fix it\nstate: open\n---\nThe body.\n' },
  });
  try {
    // The agent's `rm -r .agent/issues && ln -s ~/.config/autostart .agent/issues`, with a
    // copy of the issue there so that reading it still works.
    const victimDir = await mkdtemp(path.join(hostOnly, 'autostart-'));
    const original = '---\ntitle: Fix it\nstate: open\n---\nThe body.\n';
    await writeFile(path.join(victimDir, '1.md'), original);
    execFileSync('git', ['rm', '-r', '-q', '--cached', '.agent/issues'], { cwd: repo.dir });
    await rm(path.join(repo.dir, '.agent/issues'), { recursive: true });
    await symlink(victimDir, path.join(repo.dir, '.agent/issues'));
    const steps = await closeLocalIssueOnBranch(
      createLocalIssueStore(repo.dir),
      closingOf(repo.dir),
      'delivered',
    ).catch((error: unknown) => error);
    assert.deepEqual(await readdir(victimDir), ['1.md'], 'the host wrote a file into the linked directory');
    assert.equal(await readFile(path.join(victimDir, '1.md'), 'utf8'), original);
    assert.match(String(steps instanceof Error ? steps.message : JSON.stringify(steps)), /symlink|symbolic link/);
  } finally {
    await repo.cleanup();
  }
});
