import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkBoundary, checkReadOnly } from '../../../src/activities/tools/bash-policy.js';
import { runBash } from '../../../src/activities/tools/bash-tool.js';
import { detectIsolation } from '../../../src/activities/tools/process-isolation.js';
import { toolContext } from './tool-fixtures.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const SECRETS = {
  ANTHROPIC_API_KEY: 'sk-test-secret-123',
  GITHUB_TOKEN: 'ghp_fakeTokenValue456',
  MY_SERVICE_SECRET: 'hunter2-secret-789',
};
const PROBE =
  'cat /proc/1/environ; echo; cat /proc/$PPID/environ; echo; env; printenv; ls /proc; cat /proc/*/environ 2>/dev/null';

test('isolation: a PID namespace is available on this machine (CI runs on the same kind)', async () => {
  assert.notEqual(await detectIsolation(() => {}), 'none');
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
  assert.doesNotMatch(result.content, /home=\/root\b/);
  const again = await runBash({ command: 'pwd; echo "x=$X"' }, ctx);
  assert.match(again.content, new RegExp(path.basename(ctx.worktreePath)));
  assert.match(again.content, /x=$/m);
  const restart = await runBash({ restart: true }, ctx);
  assert.match(restart.content, /fresh shell/);
  const failing = await runBash({ command: 'echo out; exit 3' }, ctx);
  assert.match(failing.content, /out\n\[exit code 3\]/);
});

test('boundary actions are refused with a message pointing at the closure step', async () => {
  const ctx = toolContext();
  for (const command of [
    'git push origin main',
    'git -C . push --force',
    'gh pr create --fill',
    'gh pr merge 3',
    'gh issue close 7',
    'gh issue edit 7 --state closed',
    'gh release create v1',
    'gh api repos/o/r/issues/7 -X PATCH',
    'curl -X PATCH https://api.github.com/repos/o/r/issues/7',
    'wget https://github.com/o/r/archive/main.zip',
  ]) {
    const result = await runBash({ command }, { ...ctx, readOnly: false });
    assert.equal(result.isError, true, command);
    assert.match(result.content, /closure step/, command);
  }
  assert.equal(checkBoundary('git status && git log --oneline').allowed, true);
  assert.equal(checkBoundary('npm test').allowed, true);
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
  const refused = await runBash({ command: 'echo hi > out.txt' }, ctx);
  assert.equal(refused.isError, true);
  assert.match(refused.content, /read-only/);
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
