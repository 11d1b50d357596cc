/**
 * The agent's sandbox, attacked from inside: what a command can reach (HOME, /tmp,
 * paths outside the worktree, the repository's git config and hooks, the network) and
 * what survives it (detached children, also when the worker itself dies).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runBash } from '../../../src/activities/tools/bash-tool.js';
import { dependencyDirs, toolchainDirs } from '../../../src/activities/tools/sandbox-host-dirs.js';
import { detectIsolation, enforcesFilesystem } from '../../../src/activities/tools/process-isolation.js';
import { execFileSync } from 'node:child_process';
import { agentHomePath } from '../../../src/activities/workspace/sandbox-state.js';
import { makeTempGitRepo } from '../../helpers/temp-git-repo.js';
import { toolContext } from './tool-fixtures.js';
import { until } from '../../helpers/until.js';

const here = path.dirname(fileURLToPath(import.meta.url));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Pids of processes whose command line contains `marker` (read from the host's /proc). */
function pidsWith(marker: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSafe('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker)) out.push(Number(entry));
    } catch {
      // gone
    }
  }
  return out.filter((pid) => pid !== process.pid);
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

test('HOME is private, lives in the harness state dir, and the worker HOME and /tmp are hidden', async () => {
  const ctx = toolContext();
  const marker = path.join(os.tmpdir(), `visible-${process.pid}.txt`);
  writeFileSync(marker, 'host tmp file');
  try {
    const result = await runBash({ command: `echo "home=$HOME"; cat ${marker}; ls -A "${os.homedir()}" | wc -l` }, ctx);
    assert.match(result.content, new RegExp(`home=${agentHomePath(ctx.worktreePath)}`));
    assert.match(result.content, /No such file/, 'the host /tmp is not visible');
  } finally {
    await rm(marker, { force: true });
  }
});

test('writes outside the worktree are refused; inside they work', async () => {
  const ctx = toolContext();
  // Scratch dirs only (never /etc): on a machine without mounts the writes would land.
  const inHome = await mkdtemp(path.join(os.homedir(), '.sandbox-test-'));
  const inVarTmp = await mkdtemp(path.join('/var/tmp', 'sandbox-test-'));
  const beside = await mkdtemp(path.join(path.dirname(ctx.worktreePath), 'sandbox-test-'));
  try {
    const targets = [inHome, inVarTmp, beside].map((d) => path.join(d, 'pwned'));
    const result = await runBash(
      { command: `touch inside.txt; for f in ${targets.join(' ')}; do echo x > "$f"; done 2>&1; true` },
      ctx,
    );
    assert.ok(existsSync(path.join(ctx.worktreePath, 'inside.txt')));
    for (const target of targets) assert.equal(existsSync(target), false, `${target}: ${result.content}`);
  } finally {
    for (const dir of [inHome, inVarTmp, beside]) await rm(dir, { recursive: true, force: true });
  }
});

test('commands hold no capability, cannot gain one, and see /proc/sys and the cgroup files read-only', async () => {
  const ctx = toolContext();
  // The writes put back what is there: should the sandbox ever let one through, nothing changes.
  const command = [
    'grep -E "^(CapEff|CapBnd|NoNewPrivs):" /proc/self/status',
    'cat /proc/sys/kernel/core_pattern > /proc/sys/kernel/core_pattern && echo CORE-WRITTEN',
    'for f in /sys/fs/cgroup/*/release_agent /sys/fs/cgroup/*/cgroup.procs; do [ -w "$f" ] && echo "WRITABLE $f"; done',
    'mount -o remount,rw /proc/sys 2>/dev/null && echo REMOUNTED',
    'unshare --mount true 2>/dev/null && echo UNSHARED',
    'echo x > inside.txt && echo WORKTREE-OK',
    'true',
  ].join('; ');
  const result = await runBash({ command }, ctx);
  assert.match(result.content, /CapEff:\s+0000000000000000/, result.content);
  assert.match(result.content, /CapBnd:\s+0000000000000000/, result.content);
  assert.match(result.content, /NoNewPrivs:\s+1/, result.content);
  assert.doesNotMatch(result.content, /CORE-WRITTEN|WRITABLE|REMOUNTED|UNSHARED/, result.content);
  assert.match(result.content, /WORKTREE-OK/, 'the worktree stays writable');
});

test('every mount the sandbox inherited is read-only inside: /, /sys and each cgroup hierarchy', async (t) => {
  const ctx = toolContext();
  if (!enforcesFilesystem(await detectIsolation(() => undefined))) return t.skip('no mount namespace here');
  const result = await runBash({ command: "awk '{ print $5, $6 }' /proc/self/mountinfo" }, ctx);
  const options = new Map(
    result.content
      .split('\n')
      .map((line) => line.trim().split(' '))
      .filter((f) => f.length === 2)
      .map(([point, opts]) => [point!, opts!]),
  );
  const inherited = ['/', '/sys/fs/cgroup', ...[...options.keys()].filter((p) => p.startsWith('/sys/fs/cgroup/'))];
  for (const point of inherited.filter((p) => options.has(p)))
    assert.match(options.get(point)!, /^ro\b/, `${point} is ${options.get(point)}`);
  assert.ok(options.has('/'), result.content);
});

test('the repository git config and hooks are read-only for the agent; its own git works', async () => {
  const repo = await makeTempGitRepo();
  try {
    await repo.git('worktree', 'add', '-q', '-b', 'agent/issue-1', path.join(repo.dir, '.worktrees/issue-1'));
    const ctx = toolContext({ worktreePath: path.join(repo.dir, '.worktrees/issue-1') });
    mkdirSync(path.join(repo.dir, '.git/hooks'), { recursive: true });
    const result = await runBash(
      {
        command:
          'git config core.fsmonitor "touch /tmp/x" 2>&1; printf "#!/bin/sh\\n" > "$(git rev-parse --git-common-dir)/hooks/post-commit" 2>&1; ' +
          'echo a > a.txt && git add a.txt && git commit -qm "agent commit" && git log --oneline -1',
      },
      ctx,
    );
    assert.match(result.content, /agent commit/, 'agent-side git commits in its worktree');
    assert.equal(existsSync(path.join(repo.dir, '.git/hooks/post-commit')), false);
    assert.doesNotMatch(readFileSync(path.join(repo.dir, '.git/config'), 'utf8'), /fsmonitor/);
  } finally {
    await repo.cleanup();
  }
});

test('network: none — even loopback services of the host (Temporal) are unreachable', async () => {
  const server = createServer((socket) => socket.end('hello from the host\n'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  try {
    const result = await runBash(
      { command: `exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3 || echo unreachable` },
      toolContext(),
    );
    assert.doesNotMatch(result.content, /hello from the host/);
    assert.match(result.content, /unreachable/);
  } finally {
    server.close();
  }
});

test('a detached (setsid nohup) child dies when the command returns', async () => {
  const marker = `sandbox-detached-${process.pid}-${Date.now()}`;
  const result = await runBash(
    { command: `setsid nohup bash -c 'sleep 300; : ${marker}' >/dev/null 2>&1 & echo started` },
    toolContext(),
  );
  assert.match(result.content, /started/);
  // The detached child sleeps 300 s: one that escaped the kill would still be listed after 5 s.
  await until(
    () => `no process of the command to be left (left: ${pidsWith(marker).join(', ')})`,
    () => (pidsWith(marker).length === 0 ? true : undefined),
    5_000,
    100,
  );
});

test('when the worker dies, detached children of a running command die too', async () => {
  const marker = `sandbox-orphan-${process.pid}-${Date.now()}`;
  const command = `setsid nohup bash -c 'sleep 300; : ${marker}' >/dev/null 2>&1 & sleep 300; : ${marker}`;
  const worker = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'bash-env-probe.ts'), command], {
    stdio: 'ignore',
  });
  try {
    await until(
      'the command and its detached child to run',
      () => (pidsWith(marker).length >= 2 ? true : undefined),
      10_000,
      100,
    );
    worker.kill('SIGKILL');
    await until(
      () => `nothing of the command to survive the worker (left: ${pidsWith(marker).join(', ')})`,
      () => (pidsWith(marker).length === 0 ? true : undefined),
      5_000,
      100,
    );
  } finally {
    for (const pid of pidsWith(marker)) if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
});

test('toolchains under a hidden home stay usable: version-manager roots, never cargo credentials', async () => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'toolchains-'));
  try {
    for (const dir of ['.pyenv/shims', '.pyenv/libexec', '.cargo/bin', '.cargo/registry', '.rustup', 'bin'])
      mkdirSync(path.join(home, dir), { recursive: true });
    writeFileSync(path.join(home, '.cargo', 'credentials.toml'), 'token = "not-a-real-token"\n');
    const shown = toolchainDirs(
      [path.join(home, '.pyenv/shims'), path.join(home, '.cargo/bin'), path.join(home, 'bin'), '/usr/bin'].join(':'),
      [home],
    );
    assert.ok(shown.includes(path.join(home, '.pyenv')), 'pyenv shims need the whole root (libexec, version)');
    assert.ok(shown.includes(path.join(home, '.cargo/bin')) && shown.includes(path.join(home, '.rustup')));
    assert.ok(!shown.includes(path.join(home, '.cargo')), 'the cargo home holds credentials: only bin and registry');
    assert.ok(!shown.includes(home), 'the home itself is never shown');
    assert.ok(!shown.includes('/usr/bin'), 'entries outside hidden dirs need no bind');
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});

test("a worktree under the git dir resolves the checkout's installed node_modules, read-only", async () => {
  const repo = await makeTempGitRepo({ files: { 'index.js': "console.log(require('dep'));\n" } });
  try {
    mkdirSync(path.join(repo.dir, 'node_modules', 'dep'), { recursive: true });
    writeFileSync(path.join(repo.dir, 'node_modules', 'dep', 'index.js'), "module.exports = 'dep loaded';\n");
    const worktree = path.join(repo.dir, '.git', 'agent', 'worktrees', 'issue-1');
    execFileSync('git', ['worktree', 'add', '-q', '-b', 'agent/issue-1', worktree], { cwd: repo.dir });
    assert.ok(dependencyDirs(path.join(repo.dir, '.git'), {}).includes(path.join(repo.dir, 'node_modules')));
    const result = await runBash(
      { command: 'node index.js; echo x > ../../../../node_modules/dep/planted.js && echo WROTE' },
      toolContext({ worktreePath: worktree }),
    );
    assert.match(result.content, /dep loaded/, result.content);
    if (enforcesFilesystem(await detectIsolation(() => undefined)))
      assert.doesNotMatch(result.content, /WROTE/, 'the checkout’s dependencies are read-only');
  } finally {
    await repo.cleanup();
  }
});
