/**
 * A task whose gold change the test-integrity guard refuses by itself: negotiator's
 * "fixed up preferred encoding tests" removed assertions, another commit added a
 * `test:debug` script. Such a task is invalid for the gate's accuracy; a plain fix is not,
 * and an issue naming the test file and asking for the change waives nothing (a run waives
 * only for the label agent:tests-only, and a task has no labels).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goldIntegrityFinding } from '../../../../src/dev/eval/gate/gold-integrity.js';
import { commitParts, patchOf } from '../../../../src/dev/eval/mine/commit-parts.js';
import type { SweTask } from '../../../../src/dev/eval/swe-jsonl.js';
import { makeTempGitRepo, type TempGitRepo } from '../../../helpers/temp-git-repo.js';

const TEST = "it('adds', () => {\n  assert.equal(add(1, 2), 3);\n  assert.equal(add(0, 0), 0);\n});\n";

async function taskOf(repo: TempGitRepo, statement: string): Promise<SweTask> {
  const parts = await commitParts(repo.dir, await repo.git('rev-parse', 'HEAD'));
  assert.ok(parts);
  return {
    instanceId: 't',
    repo: 'o/r',
    baseCommit: parts.parent,
    patch: await patchOf(repo.dir, parts, parts.otherFiles),
    testPatch: await patchOf(repo.dir, parts, parts.testFiles),
    problemStatement: statement,
    failToPass: ['adds'],
    passToPass: [],
  };
}

test('a gold change that removes an assertion or edits test configuration is refused; a plain fix is not', async () => {
  const repo = await makeTempGitRepo({
    files: { 'src/add.js': 'export const add = (a, b) => a - b;\n', 'test/add.test.js': TEST },
  });
  try {
    await repo.write({
      'src/add.js': 'export const add = (a, b) => a + b;\n',
      'test/add.test.js': TEST.replace('3);\n', '3);\n  assert.equal(add(2, 2), 4);\n'),
    });
    await repo.git('commit', '-qam', 'add() subtracts');
    assert.equal(await goldIntegrityFinding(repo.dir, await taskOf(repo, 'add() subtracts')), undefined);

    await repo.write({
      'src/add.js': 'export const add = (a, b) => b + a;\n',
      'test/add.test.js': TEST.replace('  assert.equal(add(0, 0), 0);\n', ''),
    });
    await repo.git('commit', '-qam', 'fix(test): fixed up the tests');
    const refused = await goldIntegrityFinding(repo.dir, await taskOf(repo, 'fix(test): fixed up the tests'));
    assert.match(refused ?? '', /change\(s\) weakening the tests.*test\/add\.test\.js:\d+ assertion removed/);
    // The same change, when the issue asks for it by file: the words waive nothing.
    const asked = 'Remove the assertion on add(0, 0) from add.test.js';
    assert.match((await goldIntegrityFinding(repo.dir, await taskOf(repo, asked))) ?? '', /assertion removed/);
  } finally {
    await repo.cleanup();
  }
});
