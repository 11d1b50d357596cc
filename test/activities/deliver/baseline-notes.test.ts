/**
 * The PR body, the GitHub completion comment and the local closing comment show the
 * closure's claims about tests red on the base (test, reason) and the fixed tests
 * (issue 37); closing keywords in a claim's reason are defused in the PR body.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ConditionResult } from '../../../src/contracts/validation.js';
import { closingComment } from '../../../src/activities/deliver/closing-comment.js';
import { completionComment, pullRequestBody } from '../../../src/activities/deliver/github-delivery-text.js';

const evidence: ConditionResult[] = [
  {
    validator: 'tests',
    passed: true,
    command: 'npm test',
    exitCode: 1,
    summary:
      '`npm test` exited 1, accepted under baseline ignore: only failures already on base abc, each classified unrelated',
    params: {
      baseCommit: 'abcdef0123456789'.repeat(2),
      preExisting: [{ name: 'legacy keeps the old rounding', unrelated: 'fixes #9 is where\nrounding lives' }],
      fixed: [{ name: 'clamp lowers values above the range' }],
    },
    unrecoverable: false,
  },
];
const facts = {
  workflowId: 'wf-1',
  issue: 4,
  branch: 'agent/issue-4',
  baseBranch: 'main',
  closureAction: 'close' as const,
  summary: 'Clamped.',
  evidence,
};

test('the PR body has a section with each claim and the fixed tests, closing keywords defused', () => {
  const body = pullRequestBody(facts);
  assert.match(
    body,
    /## Tests failing on the base commit\n\nFailing on the base commit `abcdef012345` and still failing/,
  );
  assert.match(body, /- `legacy keeps the old rounding`: fixes issue #9 is where rounding lives\n/);
  assert.match(body, /passing now \(fixed\): `clamp lowers values above the range`\n\n## Completion evidence/);
  assert.doesNotMatch(body, /fixes #9/);
});

test('the completion comment and the local closing comment carry the claim and the fixed tests', () => {
  for (const text of [
    completionComment({ ...facts, prUrl: 'https://example.invalid/pr/1' }),
    closingComment({ workflowId: 'wf-1', branch: 'agent/issue-4', closes: true, summary: 'Clamped.', evidence }),
  ]) {
    assert.match(text, /Tests failing on the base commit:/);
    assert.match(text, /- `legacy keeps the old rounding`: fixes #9 is where rounding lives/);
    assert.match(text, /\(fixed\): `clamp lowers values above the range`/);
  }
});

test('no base failures, no section', () => {
  const plain = [{ ...evidence[0]!, params: {} }];
  assert.doesNotMatch(pullRequestBody({ ...facts, evidence: plain }), /base commit/);
  assert.doesNotMatch(completionComment({ ...facts, evidence: plain }), /base commit/);
});

test('a base with dozens of failing tests: the comment names the first 20, then how many more', () => {
  const many = Array.from({ length: 56 }, (_, i) => ({ name: `test_changed_value[${i}]` }));
  const text = closingComment({
    workflowId: 'wf-1',
    branch: 'agent/issue-4',
    closes: true,
    summary: 'Fixed.',
    evidence: [{ ...evidence[0]!, params: { baseCommit: 'a'.repeat(40), fixed: many } }],
  });
  assert.match(text, /`test_changed_value\[19\]` \(\+36 more\)/);
  assert.doesNotMatch(text, /test_changed_value\[20\]/);
});
