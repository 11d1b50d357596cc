/** A mined task's issue from its commit message, and SWE-bench JSONL: read, written, refused with line and field. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commitIssue, problemStatement } from '../../../src/dev/eval/mine/commit-issue.js';
import { looksLikeSwe, parseSweFile, sweLine, type SweTask } from '../../../src/dev/eval/swe-jsonl.js';

test('the subject is the title, the body the body, trailers left out; a merge takes the PR title', () => {
  const issue = commitIssue(
    'Fix parse of empty values\n\nAn empty value threw.\nNow it is "".\n\nSigned-off-by: A <a@b.c>\nCo-authored-by: B <b@c.d>\n',
  );
  assert.deepEqual(issue, { title: 'Fix parse of empty values', body: 'An empty value threw.\nNow it is "".' });
  assert.equal(problemStatement(issue), 'Fix parse of empty values\n\nAn empty value threw.\nNow it is "".');
  assert.deepEqual(commitIssue('Merge pull request #12 from x/y\n\nAllow a leading dot'), {
    title: 'Allow a leading dot',
    body: '',
  });
  assert.equal(problemStatement(commitIssue('Only a subject')), 'Only a subject');
});

const TASK: SweTask = {
  instanceId: 'o__r-1',
  repo: 'o/r',
  baseCommit: 'abcdef1',
  patch: 'diff --git a/x b/x\n',
  testPatch: 'diff --git a/t b/t\n',
  problemStatement: 'Title\n\nBody',
  failToPass: ['t1'],
  passToPass: ['t2'],
  testCommand: 'npm test',
};

test('a written line reads back; the published string-encoded lists are accepted', () => {
  const line = sweLine(TASK);
  assert.ok(looksLikeSwe(line) && looksLikeSwe(`${line}\n${line}\n`));
  assert.equal(looksLikeSwe('{ "name": "x", "tasks": [] }'), false);
  assert.deepEqual(parseSweFile(`${line}\n`, 'f.jsonl')[0]?.task, TASK);
  const published = { ...JSON.parse(line), FAIL_TO_PASS: '["a", "b"]', PASS_TO_PASS: '[]' };
  assert.deepEqual(parseSweFile(JSON.stringify(published), 'f.jsonl')[0]?.task.failToPass, ['a', 'b']);
});

test('a bad line is named with its number and field', () => {
  const good = sweLine(TASK);
  const noBase = JSON.stringify({ ...JSON.parse(good), base_commit: undefined });
  assert.throws(
    () => parseSweFile(`${good}\n\n${noBase}\n`, 'f.jsonl'),
    (err: Error & { where?: string }) => {
      assert.match(err.message, /base_commit is missing/);
      assert.equal((err as { context?: { where?: string } }).context?.where ?? err.where, 'f.jsonl:3#/base_commit');
      return true;
    },
  );
  assert.throws(() => parseSweFile(`${good}\nnot json\n`, 'f.jsonl'), /line 2 is not JSON/);
  const empty = JSON.stringify({ ...JSON.parse(good), FAIL_TO_PASS: [] });
  assert.throws(() => parseSweFile(empty, 'f.jsonl'), /FAIL_TO_PASS is empty/);
});
