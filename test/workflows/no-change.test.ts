/**
 * The no-op guard end to end (issue 37), on the real dev server with the default agent and
 * a scripted model that changes nothing. The sample repository's test already fails on the
 * base and the issue does not name it, so the baseline excuses it: before the guard such a
 * run ended `success` with no commit and closed the issue.
 *   (a) closing without a declaration: a failed completion check whose retry prompt says
 *       nothing changed; never success, the issue stays open.
 *   (b) closing with `no_change`: outcome `no-change`, nothing delivered, the issue open
 *       with the reason as a comment and the needs-human label.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runScenario } from '../helpers/run-scenario.js';
import { CLOSING, NO_CHANGE, changesNothing, issueFile } from './no-change-session.js';
import { teardownEnv } from '../helpers/temporal-env.js';

after(teardownEnv);

const commitsOnBranch = (repoPath: string, branch: string): string =>
  execFileSync('git', ['rev-list', '--count', `main..${branch}`], { cwd: repoPath, encoding: 'utf8' }).trim();

test('(a) a closing that changed nothing is a failed check: the retry prompt says so, never success, the issue stays open', async () => {
  const { result, repoPath, model } = await runScenario({
    session: changesNothing('changes nothing', CLOSING),
    issueFile: await issueFile(),
  });
  assert.notEqual(result.outcome, 'success', result.reason);
  assert.equal(result.outcome, 'failed');
  assert.equal(result.code, 'VALIDATION_ABORTED', result.reason);
  assert.match(result.reason, /branch-changed: nothing changed/);
  assert.equal(model.stats().byRule['retry-nothing-changed'], 2, 'each retry prompt said nothing changed');
  // The step list says the checks refused each closing the model called done.
  const closings = result.steps.filter((s) => s.intent === 'closing');
  assert.ok(closings.length >= 3, JSON.stringify(result.steps));
  for (const s of closings) assert.match(s.checks ?? '', /^failed: (.*, )?branch-changed\b/, JSON.stringify(s));
  const issue = await readFile(join(repoPath, '.agent', 'issues', '1.md'), 'utf8');
  assert.match(issue, /state: open/);
  assert.equal(commitsOnBranch(repoPath, result.branch ?? 'agent/issue-1'), '0');
  assert.equal(result.boundary, undefined, 'no boundary effect');
});

test('(b) a closing that declares no_change ends no-change: nothing delivered, a comment and agent:needs-human', async () => {
  const { result, repoPath, model } = await runScenario({
    session: changesNothing('declares no change', { ...CLOSING, no_change: NO_CHANGE }),
    issueFile: await issueFile(),
  });
  assert.equal(result.outcome, 'no-change', result.reason);
  assert.equal(result.code, undefined);
  assert.match(result.reason, /the closure declared already-fixed; nothing delivered, issue #1 left open/);
  assert.equal(result.noChange?.declaration.reason, 'already-fixed');
  assert.equal(result.steps.at(-1)?.checks, 'passed', 'the accepted declaration passed the checks');
  assert.equal(model.stats().byRule['retry-nothing-changed'] ?? 0, 0, 'accepted at the first closing');
  assert.deepEqual(
    result.boundary?.effects.map((e) => `${e.name}:${e.status}`),
    ['comment:done', 'label:done', 'close-issue:skipped'],
  );
  const issue = await readFile(join(repoPath, '.agent', 'issues', '1.md'), 'utf8');
  assert.match(issue, /state: open/);
  assert.match(issue, /labels: \[bug, agent:needs-human\]|agent:needs-human/);
  assert.match(issue, /No change made: already-fixed/);
  assert.match(issue, /sum\(0, 0\) is 0 on main/);
  assert.equal(commitsOnBranch(repoPath, 'agent/issue-1'), '0');
  const branches = execFileSync('git', ['branch', '--list'], { cwd: repoPath, encoding: 'utf8' });
  assert.match(branches, /agent\/issue-1/, 'the branch is kept, nothing merged');
});
