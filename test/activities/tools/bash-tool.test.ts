import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkReadOnly } from '../../../src/activities/tools/bash-policy.js';
import { runBash } from '../../../src/activities/tools/bash-tool.js';
import { detectIsolation } from '../../../src/activities/tools/process-isolation.js';
import { makeTempGitRepo } from '../../helpers/temp-git-repo.js';
import { toolContext } from './tool-fixtures.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const SECRETS = {
  ANTHROPIC_API_KEY: 'canary-model-key-123',
  GITHUB_TOKEN: 'canary-github-token-456',
  MY_SERVICE_SECRET: 'hunter2-secret-789',
};
const PROBE =
  'cat /proc/1/environ; echo; cat /proc/$PPID/environ; echo; env; printenv; ls /proc; cat /proc/*/environ 2>/dev/null';

test('isolation: mount, PID and network namespaces are available on this machine (CI runs on the same kind)', async () => {
  const isolation = await detectIsolation(() => {});
  assert.ok(['namespaces', 'user-namespaces'].includes(isolation.mode), isolation.mode);
  assert.equal(isolation.privateNetwork, true);
  assert.equal(isolation.pdeathsig, true);
});

test('no secret of the worker reaches the shell: env, printenv, /proc/1 and /proc/$PPID', () => {
  // A child process started WITH the secrets, so its /proc/<pid>/environ holds them.
  const output = execFileSync(process.execPath, ['--import', 'tsx', path.join(here, 'bash-env-probe.ts'), PROBE], {
    env: { ...process.env, ...SECRETS },
    encoding: 'utf8',
  });
  assert.match(output, /PATH=/, 'the probe ran');
  for (const value of Object.values(SECRETS)) assert.ok(!output.includes(value), `leaked ${value}`);
  assert.doesNotMatch(output, /ANTHROPIC_|GITHUB_TOKEN/);
});

test('in-process secrets are not inherited either', async () => {
  const saved = { ...process.env };
  Object.assign(process.env, SECRETS);
  try {
    const result = await runBash({ command: PROBE }, toolContext());
    for (const value of Object.values(SECRETS)) assert.ok(!result.content.includes(value));
  } finally {
    for (const key of Object.keys(SECRETS)) if (!(key in saved)) delete process.env[key];
  }
});

test('bash runs in the worktree, stateless per command, with a private HOME', async () => {
  const ctx = toolContext();
  const result = await runBash({ command: 'pwd; echo "home=$HOME"; cd /; export X=1' }, ctx);
  assert.match(result.content, new RegExp(path.basename(ctx.worktreePath)));
  assert.doesNotMatch(result.content, new RegExp(`home=${os.homedir()}\n`));
  const again = await runBash({ command: 'pwd; echo "x=$X"' }, ctx);
  assert.match(again.content, new RegExp(path.basename(ctx.worktreePath)));
  assert.match(again.content, /x=$/m);
  const restart = await runBash({ restart: true }, ctx);
  assert.match(restart.content, /fresh shell/);
  const failing = await runBash({ command: 'echo out; exit 3' }, ctx);
  assert.match(failing.content, /out\n\[exit code 3\]/);
});

test('there is no command filter: a push is attempted and fails for lack of network and credentials', async () => {
  const repo = await makeTempGitRepo();
  const ctx = toolContext({ worktreePath: repo.dir });
  try {
    const result = await runBash(
      {
        command:
          'G=git; $G push https://github.com/acme/widgets.git main 2>&1; echo "token=[$GITHUB_TOKEN]"; ls ~/.git-credentials ~/.config/gh 2>&1',
      },
      ctx,
    );
    assert.doesNotMatch(result.content, /closure step|Refused/, 'not refused by a pattern');
    assert.match(result.content, /could not resolve host|unable to access|Could not resolve|network/i, 'no network');
    assert.match(result.content, /token=\[\]/, 'no token in the env');
    assert.match(result.content, /No such file/, 'no credential files in HOME');
  } finally {
    await repo.cleanup();
  }
});

test('read-only steps refuse obviously mutating commands, allow inspection', async () => {
  const ctx = toolContext({ readOnly: true });
  for (const command of [
    'rm -rf src',
    'echo x > file.txt',
    'sed -i s/a/b/ f',
    'git commit -am x',
    'npm install lodash',
    'touch a',
  ]) {
    assert.equal(checkReadOnly(command).allowed, false, command);
  }
  for (const command of [
    'cat f 2>/dev/null',
    'grep -rn foo . 2>&1 | head',
    'git diff --stat',
    'npm test > /dev/null',
    'ls -la',
  ]) {
    assert.equal(checkReadOnly(command).allowed, true, command);
  }
  // With a mount namespace the worktree itself is read-only (no pattern needed).
  const refused = await runBash({ command: 'echo hi > out.txt; touch b; echo done' }, ctx);
  assert.match(refused.content, /read-only/i);
  assert.equal(existsSync(path.join(ctx.worktreePath, 'out.txt')), false);
  assert.equal(existsSync(path.join(ctx.worktreePath, 'b')), false);
});

test('per-command timeout kills the command and says so', async () => {
  const ctx = toolContext({ limits: { bashTimeoutMs: 300, maxOutputChars: 16_000 } });
  const started = Date.now();
  const result = await runBash({ command: 'echo start; sleep 20; echo never' }, ctx);
  assert.ok(Date.now() - started < 5_000);
  assert.equal(result.isError, true);
  assert.match(result.content, /timed out/);
  assert.doesNotMatch(result.content, /never/);
});

test('large output: head+tail view, full text in the artifact store', async () => {
  const ctx = toolContext({ limits: { bashTimeoutMs: 10_000, maxOutputChars: 1_000 } });
  const result = await runBash({ command: 'seq 1 20000' }, ctx);
  assert.ok(result.content.length < 1_500);
  assert.match(result.content, /^1\n2\n/);
  assert.match(result.content, /20000\n/);
  const saved = /saved to (\S+)\./.exec(result.content)?.[1];
  assert.ok(saved);
  assert.equal(readFileSync(saved, 'utf8').split('\n').length, 20001);
});
