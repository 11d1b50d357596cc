/**
 * The spawner helper: programs run with exactly the environment given, input and
 * output pass through, failures to start reject, a dead helper rejects what was waiting
 * (retryable) and is replaced, and the helper itself holds none of the worker's secrets.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { AgentError } from '../../../../src/contracts/errors.js';
import { createHelperSpawner } from '../../../../src/activities/process/spawner/process-spawner.js';
import { PROJECT_ROOT } from '../../../../src/host/project-root.js';
import { until } from '../../../helpers/until.js';

const spawner = createHelperSpawner();
after(() => spawner.close());
const PATH = process.env.PATH ?? '/usr/bin:/bin';

test('runs a program with exactly the given environment, in the given directory', async () => {
  const r = await spawner.run({
    file: 'sh',
    args: ['-c', 'pwd; env | sort'],
    cwd: '/tmp',
    env: { PATH, ONLY: 'this' },
  });
  assert.equal(r.exitCode, 0);
  const [pwd, ...vars] = r.stdout.trim().split('\n');
  assert.equal(pwd, '/tmp');
  const names = vars.map((line) => line.split('=')[0]).filter((n) => n !== 'PWD' && n !== 'SHLVL' && n !== '_');
  assert.deepEqual(names.sort(), ['ONLY', 'PATH']);
});

test('passes stdin, keeps stdout and stderr apart, reports the exit code', async () => {
  const r = await spawner.run({
    file: 'sh',
    args: ['-c', 'cat; echo oops >&2; exit 3'],
    cwd: '/tmp',
    env: { PATH },
    input: 'line one\nline two\n',
  });
  assert.deepEqual([r.exitCode, r.stdout, r.stderr, r.signal], [3, 'line one\nline two\n', 'oops\n', null]);
});

test('a signal death is reported with a null exit code', async () => {
  const r = await spawner.run({ file: 'sh', args: ['-c', 'kill -TERM $$'], cwd: '/tmp', env: { PATH } });
  assert.equal(r.exitCode, null);
  assert.equal(r.signal, 'SIGTERM');
});

test('output beyond the cap is dropped and flagged', async () => {
  const r = await spawner.run({
    file: 'sh',
    args: ['-c', 'head -c 100000 /dev/zero | tr "\\0" x'],
    cwd: '/tmp',
    env: { PATH },
    maxChars: 1000,
  });
  assert.equal(r.stdout.length, 1000);
  assert.equal(r.truncated, true);
});

test('headTail keeps both ends; all interleaves both streams', async () => {
  const r = await spawner.run({
    file: 'sh',
    args: ['-c', 'echo first; head -c 5000 /dev/zero | tr "\\0" x; echo; echo last; echo err >&2'],
    cwd: '/tmp',
    env: { PATH },
    maxChars: 100,
    capMode: 'headTail',
    all: true,
  });
  assert.match(r.stdout, /^first\n/);
  assert.match(r.stdout, /characters omitted/);
  assert.match(r.stdout, /last\n$/);
  assert.match(r.all ?? '', /err/);
  assert.equal(r.truncated, true);
});

test('a timeout ends the whole process group, grandchildren holding the pipes too', async () => {
  const started = Date.now();
  const r = await spawner.run({
    file: 'bash',
    args: ['-c', 'sleep 30 | cat; echo never'],
    cwd: '/tmp',
    env: { PATH },
    group: true,
    timeoutMs: 300,
    killGraceMs: 300,
  });
  assert.equal(r.timedOut, true);
  assert.doesNotMatch(r.stdout, /never/);
  assert.ok(Date.now() - started < 5000, 'returned promptly');
});

test('an abort cancels the group; an abort before the start runs nothing', async () => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 200);
  const r = await spawner.run({
    file: 'bash',
    args: ['-c', 'sleep 30 & wait'],
    cwd: '/tmp',
    env: { PATH },
    group: true,
    signal: controller.signal,
    killGraceMs: 300,
  });
  assert.equal(r.canceled, true);
  const before = await spawner.run({
    file: 'touch',
    args: ['x'],
    cwd: '/tmp',
    env: { PATH },
    signal: controller.signal,
  });
  assert.equal(before.canceled, true);
});

test('killOnOverflow stops a runaway output', async () => {
  const started = Date.now();
  const r = await spawner.run({
    file: 'bash',
    args: ['-c', 'yes'],
    cwd: '/tmp',
    env: { PATH },
    group: true,
    maxChars: 10_000,
    killOnOverflow: true,
  });
  assert.equal(r.signal, 'SIGKILL');
  assert.equal(r.truncated, true);
  assert.equal(r.stdout.length, 10_000);
  assert.ok(Date.now() - started < 10_000);
});

test('a program that cannot be started rejects, naming it', async () => {
  await assert.rejects(
    spawner.run({ file: 'no-such-program-here', args: ['x'], cwd: '/tmp', env: { PATH } }),
    /no-such-program-here.*ENOENT/,
  );
  await assert.rejects(spawner.run({ file: 'sh', args: ['-c', 'true'], cwd: '/no/such/dir', env: { PATH } }), /ENOENT/);
});

test('runs many programs at once', async () => {
  const results = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      spawner.run({ file: 'sh', args: ['-c', `echo ${i}`], cwd: '/tmp', env: { PATH } }),
    ),
  );
  assert.deepEqual(
    results.map((r) => r.stdout.trim()),
    Array.from({ length: 40 }, (_, i) => String(i)),
  );
});

test('the helper holds none of the parent environment (no secret, no NODE_OPTIONS)', async () => {
  process.env.SPAWNER_CANARY_SECRET = 'canary-SPAWNER-77';
  try {
    const own = createHelperSpawner();
    try {
      await own.run({ file: 'true', args: [], cwd: '/tmp', env: { PATH } });
      const pid = own.helperPid();
      assert.ok(pid !== undefined);
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
      assert.doesNotMatch(environ, /canary-SPAWNER-77/);
      assert.doesNotMatch(environ, /NODE_OPTIONS|ANTHROPIC|GITHUB_TOKEN/);
    } finally {
      own.close();
    }
  } finally {
    delete process.env.SPAWNER_CANARY_SECRET;
  }
});

test('a helper that dies rejects what was waiting (retryable) and the next call gets a new one', async () => {
  const own = createHelperSpawner();
  try {
    const waiting = own.run({ file: 'sleep', args: ['5'], cwd: '/tmp', env: { PATH } });
    const first = own.helperPid();
    assert.ok(first !== undefined);
    process.kill(first, 'SIGKILL');
    await assert.rejects(waiting, (err: unknown) => {
      assert.ok(AgentError.isInstance(err));
      assert.equal(err.retryable, true);
      assert.match(err.message, /process helper exited .*sleep 5/);
      return true;
    });
    const r = await own.run({ file: 'sh', args: ['-c', 'echo again'], cwd: '/tmp', env: { PATH } });
    assert.equal(r.stdout, 'again\n');
    assert.notEqual(own.helperPid(), first);
  } finally {
    own.close();
  }
});

test('a helper killed mid-request rejects it even when nothing else keeps the process alive', () => {
  // In a process of its own: in this file other handles keep the event loop going, which
  // hid that the waiting request was never settled once the helper's channel closed.
  const script = `
    import { createHelperSpawner } from ${JSON.stringify(join(PROJECT_ROOT, 'src/activities/process/spawner/process-spawner.ts'))};
    const s = createHelperSpawner();
    const waiting = s.run({ file: 'sleep', args: ['5'], cwd: '/tmp', env: { PATH: process.env.PATH } });
    process.kill(s.helperPid(), 'SIGKILL');
    await waiting.then(() => console.log('resolved'), (err) => console.log('rejected:', err.message));
  `;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.match(child.stdout, /rejected: the process helper exited \(SIGKILL\) while running sleep 5/, child.stderr);
  assert.equal(child.status, 0, child.stderr);
});

test('an idle helper does not keep its parent alive, and goes with it', async () => {
  const script = `
    import { createHelperSpawner } from ${JSON.stringify(join(PROJECT_ROOT, 'src/activities/process/spawner/process-spawner.ts'))};
    const s = createHelperSpawner();
    const r = await s.run({ file: 'sh', args: ['-c', 'echo hi'], cwd: '/tmp', env: { PATH: process.env.PATH } });
    console.log(r.stdout.trim(), s.helperPid());
  `;
  const started = Date.now();
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(child.status, 0, child.stderr);
  const [word, pid] = child.stdout.trim().split(' ');
  assert.equal(word, 'hi');
  assert.ok(Date.now() - started < 25_000, 'the parent exited by itself');
  // The helper exits once its channel closes.
  await until(
    'the helper to go with its parent',
    () => {
      try {
        process.kill(Number(pid), 0);
        return undefined;
      } catch {
        return true;
      }
    },
    5000,
    100,
  );
});
