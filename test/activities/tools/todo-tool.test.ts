/** The TodoWrite tool: Claude Code's input shape, kept in the run's artifacts across steps, never in the worktree. */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { readTodos, todoFile } from '../../../src/activities/tools/todo-tool.js';
import { executeTool } from '../../../src/activities/tools/tool-dispatcher.js';
import type { ToolContext } from '../../../src/activities/tools/tool-types.js';
import { toolContext } from './tool-fixtures.js';

const todo = (ctx: ToolContext, input: unknown) => executeTool({ id: 't', name: 'TodoWrite', input }, ctx, 'todo');

test('TodoWrite keeps the plan in the run artifacts; a later step (a new context) reads it back', async () => {
  const artifactsDir = mkdtempSync(path.join(os.tmpdir(), 'todo-art-'));
  const run = { workflowId: 'repo/agent/issue-4', issue: 4, artifactsDir };
  const first = toolContext({ stepKind: 'work', run });
  const saved = await todo(first, {
    todos: [
      { content: 'Reproduce the bug', status: 'completed', activeForm: 'Reproducing the bug' },
      { content: 'Fix sum()', status: 'in_progress', activeForm: 'Fixing sum()' },
      { content: 'Run the suite', status: 'pending', activeForm: 'Running the suite' },
    ],
  });
  assert.equal(saved.isError, false, saved.content);
  assert.match(saved.content, /Plan \(1\/3 completed\)/);
  assert.deepEqual(readdirSync(first.worktreePath), [], 'nothing written into the worktree');
  assert.ok(existsSync(todoFile(artifactsDir, run.workflowId)));

  // A verification step (read-only) of the same run: a fresh conversation reads the plan.
  const later = toolContext({ stepKind: 'verification', readOnly: true, run });
  const read = await todo(later, {});
  assert.equal(read.isError, false);
  assert.match(read.content, /\[x\] Reproduce the bug\n\[~\] Fix sum\(\)\n\[ \] Run the suite/);
  assert.equal((await readTodos(todoFile(artifactsDir, run.workflowId))).length, 3);

  const bad = await todo(later, { todos: [{ content: 'x', status: 'doing' }] });
  assert.equal(bad.isError, true);
  assert.match(bad.content, /todos\[0\]\.status must be one of pending, in_progress, completed \(got "doing"\)/);
  assert.equal((await readTodos(todoFile(artifactsDir, run.workflowId))).length, 3, 'a bad list changes nothing');
});
