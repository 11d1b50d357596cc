/**
 * Issue 37's three false greens, end to end on the dev server with the default agent, on
 * a repository whose last commit on main broke a test, for an issue that names no test
 * ("the test suite fails since the last commit"). Before issue 37 all three closed the
 * issue as fixed: the preflight recorded the failing test as the baseline, and
 * `baseline: ignore` excused it.
 *   (a) a model that changes nothing never gets the issue closed;
 *   (b) a model that fixes only after a failed check gets a retry prompt naming the
 *       failing test, then delivers, and the summary and the closing comment say it fixed it;
 *   (c) a model that deletes the failing test instead of fixing the code is refused;
 *   (d) so is one that rewrites the test's expected value and adds a comment to the code.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runScenario } from '../helpers/run-scenario.js';
import { teardownEnv } from '../helpers/temporal-env.js';
import {
  deletesFailingTest,
  fixesAfterFailedCheck,
  neverChanges,
  regressionIssueFile,
  regressionOnMain,
  rewritesExpectedValueWithComment,
} from './false-greens-session.js';

after(teardownEnv);

const git = (repoPath: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd: repoPath, encoding: 'utf8' }).trim();
const issueText = (repoPath: string): Promise<string> => readFile(join(repoPath, '.agent', 'issues', '1.md'), 'utf8');

test('(a) a model that changes nothing never gets the issue closed; the retry prompts name the failing test', async () => {
  const { result, repoPath, model } = await runScenario({
    session: neverChanges(),
    issueFile: await regressionIssueFile(),
    prepareRepo: regressionOnMain,
  });
  assert.equal(result.outcome, 'failed', result.reason);
  assert.equal(result.code, 'VALIDATION_ABORTED', result.reason);
  assert.ok((model.stats().byRule['retry-names-test'] ?? 0) >= 1, JSON.stringify(model.stats().byRule));
  assert.match(await issueText(repoPath), /state: open/);
  assert.equal(git(repoPath, 'rev-list', '--count', 'main..agent/issue-1'), '0');
  assert.equal(result.boundary, undefined, 'no boundary effect');
});

test('(b) a model that fixes only after a failed check: the retry prompt names the failing test, then it delivers', async () => {
  const { result, repoPath, model } = await runScenario({
    session: fixesAfterFailedCheck(),
    issueFile: await regressionIssueFile(),
    prepareRepo: regressionOnMain,
  });
  assert.equal(result.outcome, 'success', result.reason);
  assert.equal(model.stats().byRule['retry-fix'], 1, 'the retry prompt named sum adds two numbers');
  assert.match(result.reason, /fixed since base: sum adds two numbers/);
  assert.match(await readFile(join(repoPath, 'src', 'sum.js'), 'utf8'), /x \+ y/, 'the fix is merged');
  const issue = await issueText(repoPath);
  assert.match(issue, /state: closed/);
  assert.match(issue, /passing now \(fixed\): `sum adds two numbers`/);
});

test('(c) a model that deletes the failing test instead of fixing the code is refused', async () => {
  const { result, repoPath, model } = await runScenario({
    session: deletesFailingTest(),
    issueFile: await regressionIssueFile(),
    prepareRepo: regressionOnMain,
  });
  assert.notEqual(result.outcome, 'success', result.reason);
  assert.equal(result.code, 'VALIDATION_ABORTED', result.reason);
  assert.match(result.reason, /test-integrity/);
  assert.ok((model.stats().byRule['retry-weakened'] ?? 0) >= 1, JSON.stringify(model.stats().byRule));
  assert.match(await issueText(repoPath), /state: open/);
  assert.equal(git(repoPath, 'cat-file', '-t', 'main:test/sum.test.js'), 'blob', 'the test is still on main');
});

test('(d) a model that rewrites the expected value and adds a comment to the code is refused: the tests pass on the base code too', async () => {
  const { result, repoPath, model } = await runScenario({
    session: rewritesExpectedValueWithComment(),
    issueFile: await regressionIssueFile(),
    prepareRepo: regressionOnMain,
  });
  assert.notEqual(result.outcome, 'success', result.reason);
  assert.equal(result.code, 'VALIDATION_ABORTED', result.reason);
  assert.match(
    result.reason,
    /pass as well with this branch's tests on the base's code \(src\/sum\.js as on the base\)/,
  );
  assert.ok((model.stats().byRule['retry-tests-only'] ?? 0) >= 1, JSON.stringify(model.stats().byRule));
  assert.match(await issueText(repoPath), /state: open/);
  assert.doesNotMatch(git(repoPath, 'show', 'main:test/sum.test.js'), /-1\)/, 'main keeps the test');
});
