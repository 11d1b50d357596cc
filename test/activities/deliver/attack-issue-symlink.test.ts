/**
 * Delivering a local issue of a remote repository writes the issue's closing (its state
 * and comments, the agent's summary among them) into the issue file of the run's
 * worktree, on the host, as the worker. The agent can replace that tracked file with a
 * symlink to any file of the worker's (`~/.bashrc`, `~/.gitconfig`): the write must not
 * follow it. The state copy under the git dir exists already (the run's progress comment
 * made it), so nothing reads the link first.
 */
import assert from 'node:assert/strict';
import { lstat, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { closeLocalIssueOnBranch } from '../../../src/activities/deliver/local-issue-on-branch.js';
import { createLocalIssueStore } from '../../../src/activities/issues/local-issue-store.js';
import { makeTempGitRepo } from '../../helpers/temp-git-repo.js';

const hostOnly = await mkdtemp(path.join(os.tmpdir(), 'issue-symlink-host-'));
after(() => rm(hostOnly, { recursive: true, force: true }));

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
    await closeLocalIssueOnBranch(
      issues,
      {
        workflowId: 'run',
        mode: 'local',
        repoPath: repo.dir,
        worktreePath: repo.dir,
        branch: 'main',
        baseBranch: 'main',
        issue: 1,
        closureAction: 'close',
        labels: { add: [], remove: [] },
        summary: 'echo pwned-by-the-agent',
        evidence: [],
      },
      'delivered',
    ).catch(() => undefined);
    assert.equal(await readFile(victim, 'utf8'), 'precious\n', 'the host wrote the issue through the link');
    assert.ok((await lstat(issueFile)).isFile(), 'the link is replaced by the issue file');
    assert.match(await readFile(issueFile, 'utf8'), /state: closed/);
  } finally {
    await repo.cleanup();
  }
});
