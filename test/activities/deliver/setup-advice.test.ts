/**
 * What the repository should add to `.gitignore` (build outputs, setup's leftovers it does
 * not ignore) is said again where its maintainers read: the PR body, the GitHub completion
 * comment and the closing comment. It is read from the worktree's environment report on
 * the worker (stranger-68 P3: it was only in start-run's output).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { closingComment } from '../../../src/activities/deliver/closing-comment.js';
import { completionComment, pullRequestBody } from '../../../src/activities/deliver/github-delivery-text.js';
import { withSetupAdvice } from '../../../src/activities/deliver/setup-advice.js';
import { removeAgentSandbox } from '../../../src/activities/workspace/sandbox-state.js';
import type { BoundaryHookInput } from '../../../src/contracts/activities.js';
import { writeTestReport } from '../../helpers/installed-report.js';

const ADVICE =
  "your repository does not ignore what its build and test tools write (/target/ (rust)): kept out of the run's commits; add it to .gitignore";

const input: BoundaryHookInput = {
  workflowId: 'wf-1',
  mode: 'local',
  repoPath: '/repo',
  worktreePath: '/nowhere/issue-4',
  branch: 'agent/issue-4',
  baseBranch: 'main',
  issue: 4,
  closureAction: 'close',
  labels: { add: [], remove: [] },
  summary: 'Clamped.',
  evidence: [],
};

test("the advice is read from the worktree's environment report; none without one", async (t) => {
  const worktreePath = await mkdtemp(path.join(tmpdir(), 'advice-'));
  t.after(async () => {
    await removeAgentSandbox(worktreePath);
    await rm(worktreePath, { recursive: true, force: true });
  });
  assert.equal(withSetupAdvice({ ...input, worktreePath }).setupAdvice, undefined);
  await writeTestReport(worktreePath, {
    warnings: [ADVICE, 'the environment prepared when the run began is reused'],
    repositoryAdvice: [ADVICE],
  });
  assert.deepEqual(withSetupAdvice({ ...input, worktreePath }).setupAdvice, [ADVICE]);
});

test('the PR body, the completion comment and the closing comment carry it; nothing without it', () => {
  const advised = { ...input, setupAdvice: [ADVICE, 'setup left src/fixes #12.egg-info/'] };
  const body = pullRequestBody(advised);
  assert.ok(body.includes(`## For the repository\n\n- ${ADVICE}\n`), body);
  assert.ok(body.indexOf('## For the repository') < body.indexOf('## Completion evidence'));
  assert.match(body, /- setup left src\/fixes issue #12\.egg-info\//, 'no closing keyword from a path');
  assert.ok(completionComment(advised).includes(`For the repository:\n- ${ADVICE}`));
  const comment = closingComment({ ...advised, closes: true });
  assert.ok(comment.includes(`For the repository:\n- ${ADVICE}`), comment);
  for (const text of [pullRequestBody(input), completionComment(input), closingComment({ ...input, closes: true })])
    assert.doesNotMatch(text, /For the repository/);
});
