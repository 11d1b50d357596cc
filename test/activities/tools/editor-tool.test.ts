import assert from 'node:assert/strict';
import { linkSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { runEditor } from '../../../src/activities/tools/editor-tool.js';
import { toolContext } from './tool-fixtures.js';
import { removeAgentSandbox } from '../../../src/activities/workspace/sandbox-state.js';
import { writeInstalledReport } from '../../helpers/installed-report.js';

function worktreeWithOutside(): { worktree: string; outside: string } {
  const base = mkdtempSync(path.join(os.tmpdir(), 'editor-'));
  const worktree = path.join(base, 'wt');
  const outside = path.join(base, 'outside');
  mkdirSync(worktree);
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'secret.txt'), 'top secret');
  writeFileSync(path.join(worktree, 'a.txt'), 'one\ntwo\nthree\n');
  return { worktree, outside };
}

test('the editor refuses paths outside the worktree: .., absolute, escaping symlinks', async () => {
  const { worktree, outside } = worktreeWithOutside();
  symlinkSync(outside, path.join(worktree, 'link'));
  symlinkSync('/etc/passwd', path.join(worktree, 'passwd-link'));
  const ctx = toolContext({ worktreePath: worktree });
  const attempts: Array<Record<string, unknown>> = [
    { command: 'view', path: '../outside/secret.txt' },
    { command: 'create', path: '../outside/new.txt', file_text: 'x' },
    { command: 'view', path: '/etc/passwd' },
    { command: 'view', path: 'link/secret.txt' },
    { command: 'create', path: 'link/planted.txt', file_text: 'x' },
    { command: 'view', path: 'passwd-link' },
    { command: 'view', path: '/proc/self/environ' },
    { command: 'view', path: '.env' },
  ];
  for (const input of attempts) {
    const result = await runEditor(input, ctx);
    assert.equal(result.isError, true, JSON.stringify(input));
    assert.doesNotMatch(result.content, /top secret|root:/);
  }
  assert.throws(() => readFileSync(path.join(outside, 'planted.txt')));
  assert.throws(() => readFileSync(path.join(outside, 'new.txt')));
});

test('view with line numbers and ranges; directory listing; absolute paths inside are fine', async () => {
  const { worktree } = worktreeWithOutside();
  const ctx = toolContext({ worktreePath: worktree });
  assert.equal(
    (await runEditor({ command: 'view', path: 'a.txt', view_range: [2, 3] }, ctx)).content,
    '2: two\n3: three',
  );
  assert.match((await runEditor({ command: 'view', path: path.join(worktree, 'a.txt') }, ctx)).content, /^1: one/);
  assert.match((await runEditor({ command: 'view', path: '.' }, ctx)).content, /a\.txt/);
});

test('create, str_replace (exactly once), insert with insert_text or new_str', async () => {
  const { worktree } = worktreeWithOutside();
  const ctx = toolContext({ worktreePath: worktree });
  assert.equal((await runEditor({ command: 'create', path: 'src/b.txt', file_text: 'x\nx\n' }, ctx)).isError, false);
  const twice = await runEditor({ command: 'str_replace', path: 'src/b.txt', old_str: 'x', new_str: 'y' }, ctx);
  assert.equal(twice.isError, true);
  assert.match(twice.content, /occurs 2 times/);
  assert.equal(
    (await runEditor({ command: 'str_replace', path: 'a.txt', old_str: 'two', new_str: 'TWO' }, ctx)).isError,
    false,
  );
  assert.equal(
    (await runEditor({ command: 'insert', path: 'a.txt', insert_line: 0, insert_text: 'zero' }, ctx)).isError,
    false,
  );
  assert.equal(
    (await runEditor({ command: 'insert', path: 'a.txt', insert_line: 4, new_str: 'four' }, ctx)).isError,
    false,
  );
  assert.equal(readFileSync(path.join(worktree, 'a.txt'), 'utf8'), 'zero\none\nTWO\nthree\nfour\n');
});

test('read-only steps may view but not write', async () => {
  const { worktree } = worktreeWithOutside();
  const ctx = toolContext({ worktreePath: worktree, readOnly: true });
  assert.equal((await runEditor({ command: 'view', path: 'a.txt' }, ctx)).isError, false);
  for (const input of [
    { command: 'create', path: 'n.txt', file_text: 'x' },
    { command: 'str_replace', path: 'a.txt', old_str: 'one', new_str: '1' },
    { command: 'insert', path: 'a.txt', insert_line: 0, insert_text: 'x' },
  ]) {
    const result = await runEditor(input, ctx);
    assert.equal(result.isError, true);
    assert.match(result.content, /read-only/);
  }
  assert.equal(readFileSync(path.join(worktree, 'a.txt'), 'utf8'), 'one\ntwo\nthree\n');
});

test('the editor refuses hard-linked files: a link to a file outside can be neither read nor written', async () => {
  const { worktree, outside } = worktreeWithOutside();
  const ctx = toolContext({ worktreePath: worktree });
  linkSync(path.join(outside, 'secret.txt'), path.join(worktree, 'innocent.txt'));
  const view = await runEditor({ command: 'view', path: 'innocent.txt' }, ctx);
  assert.equal(view.isError, true);
  assert.match(view.content, /hard link/);
  assert.doesNotMatch(view.content, /top secret/);
  for (const input of [
    { command: 'create', path: 'innocent.txt', file_text: 'owned' },
    { command: 'str_replace', path: 'innocent.txt', old_str: 'top', new_str: 'owned' },
    { command: 'insert', path: 'innocent.txt', insert_line: 0, insert_text: 'owned' },
  ]) {
    const result = await runEditor(input, ctx);
    assert.equal(result.isError, true, input.command);
  }
  assert.equal(readFileSync(path.join(outside, 'secret.txt'), 'utf8'), 'top secret');
});

test('refusals name only the path the agent gave: no worker PID, no resolved target, no worktree path', async () => {
  const { worktree, outside } = worktreeWithOutside();
  symlinkSync('/proc/self/environ', path.join(worktree, 'envlink'));
  symlinkSync(outside, path.join(worktree, 'outlink'));
  const ctx = toolContext({ worktreePath: worktree });
  const attempts: Array<Record<string, unknown>> = [
    { command: 'view', path: 'envlink' },
    { command: 'view', path: path.join(worktree, 'envlink') },
    { command: 'view', path: 'outlink/secret.txt' },
    { command: 'create', path: 'outlink/planted.txt', file_text: 'x' },
    { command: 'view', path: '../outside/secret.txt' },
  ];
  const pid = new RegExp(`\\b${process.pid}\\b`);
  for (const input of attempts) {
    const result = await runEditor(input, ctx);
    const what = `${JSON.stringify(input)} -> ${result.content}`;
    assert.equal(result.isError, true, what);
    assert.doesNotMatch(result.content, pid, what);
    assert.ok(!result.content.includes('/proc'), what);
    assert.ok(!result.content.includes(outside), what);
    assert.ok(!result.content.includes(worktree), what);
  }
  const viaLink = await runEditor({ command: 'view', path: path.join(worktree, 'envlink') }, ctx);
  assert.equal(viaLink.content, 'Error: envlink is a symlink (or passes through one) leading outside the worktree');
  const outsideFile = await runEditor({ command: 'view', path: '../outside/secret.txt' }, ctx);
  assert.match(outsideFile.content, /^Error: \.\.\/outside\/secret\.txt is outside the worktree/);
});

test('the editor cannot replace what setup installed (a test runner in node_modules), but for the caches', async () => {
  const { worktree } = worktreeWithOutside();
  const jest = path.join(worktree, 'node_modules/jest/bin/jest.js');
  mkdirSync(path.dirname(jest), { recursive: true });
  mkdirSync(path.join(worktree, 'node_modules/.bin'));
  mkdirSync(path.join(worktree, 'node_modules/.cache'));
  writeFileSync(jest, 'real jest\n');
  symlinkSync('../jest/bin/jest.js', path.join(worktree, 'node_modules/.bin/jest'));
  const installed = {
    readOnly: [path.join(worktree, 'node_modules')],
    writable: [path.join(worktree, 'node_modules/.cache')],
  };
  await writeInstalledReport(worktree, installed);
  const ctx = toolContext({ worktreePath: worktree });
  try {
    const attempts: Array<Record<string, unknown>> = [
      { command: 'create', path: 'node_modules/.bin/jest', file_text: 'console.log("PASS")\n' },
      { command: 'str_replace', path: 'node_modules/jest/bin/jest.js', old_str: 'real', new_str: 'fake' },
      { command: 'insert', path: 'node_modules/jest/bin/jest.js', insert_line: 0, insert_text: 'process.exit(0)\n' },
      { command: 'create', path: 'node_modules/vitest/index.js', file_text: 'x' },
    ];
    for (const input of attempts) {
      const result = await runEditor(input, ctx);
      assert.equal(result.isError, true, JSON.stringify(input));
      assert.match(result.content, /installed dependencies are read-only/);
    }
    assert.equal(readFileSync(jest, 'utf8'), 'real jest\n');
    assert.match((await runEditor({ command: 'view', path: 'node_modules/jest/bin/jest.js' }, ctx)).content, /real/);
    const cache = await runEditor({ command: 'create', path: 'node_modules/.cache/x', file_text: 'x' }, ctx);
    assert.equal(cache.isError, false, cache.content);
  } finally {
    await removeAgentSandbox(worktree);
  }
});
