/**
 * The tool layer's record of what a step changed (issue 29): the editor's writes are
 * named (relative to the worktree), a view is not a write, and one bash command makes
 * the record unknown (the checkpoint then scans the whole worktree).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { createChangedPaths, executeTool } from '../../../src/activities/tools/tool-dispatcher.js';
import { toolContext } from './tool-fixtures.js';

const editor = (input: Record<string, unknown>) => ({ id: 't', name: 'str_replace_based_edit_tool', input });

test('the editor names the paths it writes; a view names none', async () => {
  const worktreePath = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'changed-')));
  writeFileSync(path.join(worktreePath, 'a.txt'), 'one\n');
  const changes = createChangedPaths();
  const ctx = toolContext({ worktreePath, changes });
  await executeTool(editor({ command: 'view', path: 'a.txt' }), ctx, 'l');
  assert.deepEqual(changes.list(), []);
  await executeTool(editor({ command: 'str_replace', path: 'a.txt', old_str: 'one', new_str: 'two' }), ctx, 'l');
  await executeTool(editor({ command: 'create', path: 'src/deep/b.ts', file_text: 'x\n' }), ctx, 'l');
  await executeTool(
    editor({ command: 'insert', path: path.join(worktreePath, 'a.txt'), insert_line: 0, insert_text: 'z' }),
    ctx,
    'l',
  );
  assert.deepEqual(changes.list(), ['a.txt', path.join('src', 'deep', 'b.ts')]);
});

test('one bash command makes the record unknown', async () => {
  const changes = createChangedPaths();
  const ctx = toolContext({ changes });
  await executeTool(editor({ command: 'create', path: 'c.txt', file_text: 'c\n' }), ctx, 'l');
  assert.deepEqual(changes.list(), ['c.txt']);
  await executeTool({ id: 'b', name: 'bash', input: { command: 'true' } }, ctx, 'l');
  assert.equal(changes.list(), undefined);
});

test('a path outside the worktree cannot be named', () => {
  const changes = createChangedPaths();
  changes.add('../elsewhere.txt');
  assert.equal(changes.list(), undefined);
});
