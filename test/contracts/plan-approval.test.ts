/** Plan approval's pure rules: the policy, the files a plan names, globs, `/approve`. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { approvalReason, globMatches, isApproval, planFiles } from '../../src/contracts/plan-approval.js';

test('the files a plan names, from any array under a *files key', () => {
  const plan = {
    understanding: { relevant_files: ['src/sum.js', 'test/sum.test.js', ''], acceptance_criteria: ['adds'] },
    steps: [{ files: ['src/sum.js', 'README.md'] }],
  };
  assert.deepEqual(planFiles(plan), ['README.md', 'src/sum.js', 'test/sum.test.js']);
  assert.deepEqual(planFiles({ summary: 'x' }), []);
});

test('globs: ** any depth, * within a segment, a bare pattern anywhere', () => {
  assert.equal(globMatches('src/auth/**', 'src/auth/login/form.ts'), true);
  assert.equal(globMatches('src/auth/**', 'src/authz.ts'), false);
  assert.equal(globMatches('*.sql', 'db/migrations/001.sql'), true);
  assert.equal(globMatches('db/*.sql', 'db/migrations/001.sql'), false);
  assert.equal(globMatches('**/secrets.ts', 'secrets.ts'), true);
  assert.equal(globMatches('a?.js', 'ab.js'), true);
  assert.equal(globMatches('a.js', 'axjs'), false, 'dots are literal');
});

test('the policy: never, always, more than N files, a sensitive path', () => {
  assert.equal(approvalReason(undefined, ['a']), undefined);
  assert.equal(approvalReason('never', ['a']), undefined);
  assert.match(approvalReason('always', []) ?? '', /always/);
  assert.equal(approvalReason({ maxFiles: 2 }, ['a', 'b']), undefined);
  assert.match(approvalReason({ maxFiles: 2 }, ['a', 'b', 'c']) ?? '', /3 files \(more than 2\)/);
  assert.match(approvalReason({ paths: ['migrations/**'] }, ['migrations/1.sql']) ?? '', /matches migrations/);
  assert.equal(approvalReason({ paths: ['migrations/**'] }, ['src/a.ts']), undefined);
});

test('`/approve` on a line of its own approves; anything else is a change request', () => {
  assert.equal(isApproval('/approve'), true);
  assert.equal(isApproval('Looks good.\n/approve\n'), true);
  assert.equal(isApproval('please do not /approve yet'), false);
  assert.equal(isApproval('use the v2 API instead'), false);
});
