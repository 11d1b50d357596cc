/**
 * A root worker's agent is never root: its commands run as the sandbox user (`nobody`
 * by default) through idmapped binds, and still write their worktree and commit to
 * their branch, with files on disk owned as the repository's owner would own them.
 * Skipped where the worker is not root or idmapped mounts are missing (the worker then
 * warns and keeps root without capabilities: process-isolation).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { IDMAPPED_BINDS_PROGRAM } from '../../../src/activities/tools/idmapped-binds.js';
import { runBash } from '../../../src/activities/tools/bash-tool.js';
import { detectIsolation } from '../../../src/activities/tools/process-isolation.js';
import { DEFAULT_SANDBOX_UID, sandboxUidFromEnv } from '../../../src/activities/tools/sandbox-policy.js';
import { AgentError } from '../../../src/contracts/errors.js';
import { makeTempGitRepo } from '../../helpers/temp-git-repo.js';
import { toolContext } from './tool-fixtures.js';

const isolation = await detectIsolation(() => {});
const asUser = isolation.sandboxUser !== undefined;
const skip = asUser ? false : 'the worker is not root, or idmapped mounts are not available here';

test('the idmap program fits in the prelude: no single quote in it', () => {
  assert.equal(IDMAPPED_BINDS_PROGRAM.includes("'"), false);
});

test('ISSUE_AGENT_SANDBOX_UID: nobody by default, a number, or a clear error', () => {
  assert.equal(sandboxUidFromEnv({}), DEFAULT_SANDBOX_UID);
  assert.equal(sandboxUidFromEnv({ ISSUE_AGENT_SANDBOX_UID: ' 1234 ' }), 1234);
  assert.equal(sandboxUidFromEnv({ ISSUE_AGENT_SANDBOX_UID: '0' }), 0);
  assert.throws(
    () => sandboxUidFromEnv({ ISSUE_AGENT_SANDBOX_UID: 'nobody' }),
    (e: unknown) => AgentError.isInstance(e) && e.where === 'ISSUE_AGENT_SANDBOX_UID',
  );
});

test('a root worker runs agent commands as the sandbox user, never root', { skip }, async () => {
  assert.equal(process.getuid?.(), 0);
  const command = [
    'echo "uid=$(id -u) gid=$(id -g)"',
    'cat /proc/sys/kernel/core_pattern > /proc/sys/kernel/core_pattern 2>/dev/null && echo CORE-WRITTEN',
    'for f in /sys/fs/cgroup/cgroup.procs /sys/fs/cgroup/*/release_agent; do [ -e "$f" ] && { echo 0 > "$f"; } 2>/dev/null && echo "WROTE $f"; done',
    'cat /etc/shadow >/dev/null 2>&1 && echo SHADOW-READ',
    'echo x > inside.txt && echo WORKTREE-OK',
    'true',
  ].join('; ');
  const result = await runBash({ command }, toolContext());
  assert.match(result.content, new RegExp(`uid=${DEFAULT_SANDBOX_UID} gid=${DEFAULT_SANDBOX_UID}`), result.content);
  assert.doesNotMatch(result.content, /CORE-WRITTEN|WROTE|SHADOW-READ/, result.content);
  assert.match(result.content, /WORKTREE-OK/, 'the worktree stays writable');
});

test('the sandbox user commits to its branch; on disk its files are the repository owner’s', { skip }, async () => {
  const repo = await makeTempGitRepo();
  try {
    const worktree = path.join(repo.dir, '.worktrees/issue-1');
    await repo.git('worktree', 'add', '-q', '-b', 'agent/issue-1', worktree);
    const result = await runBash(
      { command: 'echo a > a.txt && git add a.txt && git commit -qm "agent commit" && git log --oneline -1 && id -u' },
      toolContext({ worktreePath: worktree }),
    );
    assert.match(result.content, /agent commit/, result.content);
    assert.match(result.content, new RegExp(`\\b${DEFAULT_SANDBOX_UID}\\b`), result.content);
    const owner = statSync(repo.dir).uid;
    assert.equal(statSync(path.join(worktree, 'a.txt')).uid, owner, 'the new file is the owner’s on disk');
    const log = await repo.git('log', '--format=%s', '-1', 'agent/issue-1');
    assert.equal(log, 'agent commit', 'the commit is on the branch, in the repository’s own object store');
    // The user's own git reads everything the agent wrote: no object of another owner.
    await repo.git('fsck', '--no-dangling');
  } finally {
    await repo.cleanup();
  }
});

test('a filesystem without idmapped mounts fails the command with a way out, never runs it unmapped', { skip }, () => {
  // ramfs has no idmapped mounts; made in a mount namespace of its own, so the host sees nothing.
  const script = [
    'set -e',
    'd=$(mktemp -d) && mount -t ramfs none "$d"',
    'exec {fd}<"$d"',
    `env -i "$0" -e "$1" "$2" ${DEFAULT_SANDBOX_UID} ${DEFAULT_SANDBOX_UID} "rw:$fd:$d"`,
  ].join('\n');
  const run = spawnSync(
    'unshare',
    [
      '--mount',
      '--pid',
      '--fork',
      '--mount-proc',
      'bash',
      '-c',
      script,
      isolation.sandboxUser?.perl ?? '/usr/bin/perl',
      IDMAPPED_BINDS_PROGRAM,
      String(isolation.sandboxUser?.unshareNr ?? 272),
    ],
    { encoding: 'utf8' },
  );
  assert.equal(run.status, 32, run.stderr);
  assert.match(run.stderr, /idmapped mount of .*ISSUE_AGENT_SANDBOX_UID=0/s);
});
