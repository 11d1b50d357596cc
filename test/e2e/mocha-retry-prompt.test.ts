/**
 * npm + mocha, the retry prompt: a wrong first fix breaks a test that passes on main,
 * the closure's retry prompt names it by mocha's full title (`clamp raises values below
 * the range`), and the right fix after it lets the run succeed with the fix alone on
 * the branch. A fresh clone with nothing installed, as in npm-mocha.test.ts.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TempGitRepo } from '../helpers/temp-git-repo.js';
import { teardownEnv } from '../helpers/temporal-env.js';
import { CLAMP_BUGGY, CLAMP_FILES, CLAMP_RIGHT, lockClampOrigin } from './clamp-project.js';
import { makeOrigin, removeStateDir, runOnFreshClone } from './fresh-clone-run.js';
import { RETRY_NAMES_TEST, wrongThenRightSession } from './retry-fix-session.js';
import { assertSucceeded } from './run-diagnosis.js';

const WRONG = 'return Math.min(value, hi);';

const ISSUE = { title: 'clamp() ignores the upper bound', body: 'clamp(15, 0, 10) returns 15; it should return 10.' };

let origin: TempGitRepo;

before(async () => {
  origin = await makeOrigin(CLAMP_FILES, lockClampOrigin);
});

after(async () => {
  await origin.cleanup();
  await removeStateDir();
  await teardownEnv();
});

test('a wrong first fix: the retry prompt names the broken mocha test by its full title, the right fix succeeds', async () => {
  const session = wrongThenRightSession({
    name: 'clamp upper bound',
    path: 'lib/clamp.js',
    // Lowers values above the range, but no longer raises those below it: that test passed on main.
    wrong: { old: CLAMP_BUGGY, new: WRONG },
    right: { old: WRONG, new: CLAMP_RIGHT },
    testCommand: 'npm test',
    failingTest: 'clamp raises values below the range',
  });
  const run = await runOnFreshClone({ origin, issue: ISSUE, session });
  assert.equal(run.byRule[RETRY_NAMES_TEST], 1, `retry prompt did not name the test: ${JSON.stringify(run.byRule)}`);
  assert.equal(run.cli.code, 0, `${run.cli.stderr}\n${run.cli.stdout}`);
  await assertSucceeded(run);
  assert.deepEqual(await run.changedOnBranch(), ['lib/clamp.js']);
  assert.match((run.result?.environment ?? []).join('\n'), /preflight: tests: baseline .*clamp lowers values above/);
});
