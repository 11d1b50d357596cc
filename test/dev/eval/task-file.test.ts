/** The eval task file: paths resolve beside it; a bad task is refused with a pointer. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../../src/host/project-root.js';
import { loadTaskFile, parseTaskFile, selectTasks } from '../../../src/dev/eval/task-file.js';

test('the shipped task set loads: several languages, every task with hidden checks and a session', () => {
  const file = loadTaskFile(join(PROJECT_ROOT, 'eval', 'tasks.json'));
  assert.ok(file.tasks.length >= 5 && file.tasks.length <= 10);
  for (const t of file.tasks) {
    assert.ok(t.repo.startsWith(join(PROJECT_ROOT, 'eval', 'repos')), t.repo);
    assert.ok(t.session?.endsWith(`${t.id}.json`));
    assert.ok(t.checks.length > 0);
  }
  assert.deepEqual([...new Set(file.tasks.map((t) => t.id.split('-')[0]))].sort(), ['go', 'js', 'py']);
});

test('a task without checks, a duplicate id and a hidden file outside the repo are refused', () => {
  const task = { id: 'a', repo: 'r', issue: { title: 't', body: 'b' }, checks: ['true'] };
  assert.throws(() => parseTaskFile({ tasks: [{ ...task, checks: [] }] }, '/x/tasks.json'), /checks is missing/);
  assert.throws(() => parseTaskFile({ tasks: [task, task] }, '/x/tasks.json'), /duplicate id a/);
  assert.throws(
    () => parseTaskFile({ tasks: [{ ...task, hiddenFiles: { '../evil.js': '' } }] }, '/x/tasks.json'),
    /leaves the repository/,
  );
  const ok = parseTaskFile({ tasks: [{ ...task, repo: 'https://example.invalid/r.git' }] }, '/x/tasks.json');
  assert.equal(ok.tasks[0]?.repo, 'https://example.invalid/r.git', 'git URLs are kept');
  assert.equal(parseTaskFile({ tasks: [task] }, '/x/tasks.json').tasks[0]?.repo, '/x/r');
});

test('--only selects the named tasks in the file order; none named is all; an unknown name is a usage error', () => {
  const { tasks } = loadTaskFile(join(PROJECT_ROOT, 'eval', 'tasks.json'));
  assert.deepEqual(
    selectTasks(tasks, ' py-median,js-sum ').map((t) => t.id),
    ['js-sum', 'py-median'],
  );
  assert.equal(selectTasks(tasks, undefined), tasks);
  assert.throws(() => selectTasks(tasks, 'js-sum,nope'), {
    name: 'UsageError',
    message: /--only names no task "nope"/,
  });
});
