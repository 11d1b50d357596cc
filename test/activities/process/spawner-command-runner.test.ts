import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSpawnerCommandRunner } from '../../../src/activities/process/spawner-command-runner.js';
import { CappedText } from '../../../src/activities/process/capped-text.js';
import { scrubbedEnv } from '../../../src/activities/process/scrubbed-env.js';

const runner = createSpawnerCommandRunner({ killGraceMs: 300 });

test('exited: exit code, stdout, stderr and interleaved output', async () => {
  const cwd = await realpath(await mkdtemp(join(tmpdir(), 'cmd-')));
  try {
    const r = await runner.run({ command: 'pwd; echo out; echo err >&2; exit 3', cwd });
    assert.equal(r.kind, 'exited');
    assert.equal(r.exitCode, 3);
    assert.equal(r.stdout, `${cwd}\nout\n`);
    assert.equal(r.stderr, 'err\n');
    assert.match(r.all, /out/);
    assert.match(r.all, /err/);
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
});

test('bash features (pipes, [[ ]]) work and env is layered', async () => {
  const r = await runner.run({
    command: 'if [[ "$FOO" == bar ]]; then echo yes | tr a-z A-Z; fi',
    cwd: tmpdir(),
    env: { FOO: 'bar' },
  });
  assert.equal(r.stdout.trim(), 'YES');
});

test('timedOut kills the whole process group (grandchildren holding the pipes too)', async () => {
  const started = Date.now();
  const r = await runner.run({ command: 'sleep 20 | cat; echo never', cwd: tmpdir(), timeoutMs: 300 });
  assert.equal(r.kind, 'timedOut');
  assert.equal(r.exitCode, undefined);
  assert.ok(Date.now() - started < 5000, 'returned promptly');
  assert.match(r.error ?? '', /timed out/);
});

test('canceled by the AbortSignal', async () => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 200);
  const r = await runner.run({ command: 'sleep 20', cwd: tmpdir(), signal: controller.signal });
  assert.equal(r.kind, 'canceled');
});

test('crashed when it cannot start (missing cwd)', async () => {
  const r = await runner.run({ command: 'echo hi', cwd: join(tmpdir(), 'no-such-dir-xyz-123') });
  assert.equal(r.kind, 'crashed');
  assert.ok(r.error);
});

test('output is capped, keeping head and tail', async () => {
  const small = createSpawnerCommandRunner({ outputCapChars: 100 });
  const r = await small.run({
    command: 'echo FIRST; for i in $(seq 1 2000); do echo line$i; done; echo LAST',
    cwd: tmpdir(),
  });
  assert.equal(r.kind, 'exited');
  assert.ok(r.stdout.length < 200);
  assert.match(r.stdout, /^FIRST/);
  assert.match(r.stdout, /LAST\n$/);
  assert.match(r.stdout, /characters omitted/);
});

test('CappedText keeps short text whole', () => {
  const t = new CappedText(10);
  t.append('abc');
  t.append('de');
  assert.equal(t.toString(), 'abcde');
});

test('secrets of the worker are not inherited', async () => {
  assert.deepEqual(scrubbedEnv({ PATH: '/bin', ANTHROPIC_API_KEY: 'x', GITHUB_TOKEN: 'y' }), { PATH: '/bin' });
  process.env['TEST_SECRET_TOKEN'] = 'leak';
  try {
    const r = await runner.run({ command: 'echo "[$TEST_SECRET_TOKEN]"', cwd: tmpdir() });
    assert.equal(r.stdout.trim(), '[]');
  } finally {
    delete process.env['TEST_SECRET_TOKEN'];
  }
});

test('a worker secret a command prints anyway (read from a file, say) is redacted in every stream', async () => {
  const secret = 'plain-github-token-value-0123456789';
  const previous = process.env['GITHUB_TOKEN'];
  process.env['GITHUB_TOKEN'] = secret;
  try {
    const r = await runner.run({ command: `echo ${secret}; echo ${secret} >&2`, cwd: tmpdir() });
    assert.equal(r.kind, 'exited');
    for (const text of [r.stdout, r.stderr, r.all]) {
      assert.doesNotMatch(text, new RegExp(secret));
      assert.match(text, /\[REDACTED\]/);
    }
  } finally {
    if (previous === undefined) delete process.env['GITHUB_TOKEN'];
    else process.env['GITHUB_TOKEN'] = previous;
  }
});
