/**
 * Go + `go test`, as a new user meets it: a module with one dependency from the Go
 * proxy (github.com/google/uuid, go.sum committed) on a fresh clone with an empty
 * module cache.
 *   - a planted bug and a scripted fix: the environment phase downloads the module and
 *     warms the build cache, `go test ./...` is the detected test command, the preflight
 *     keeps the red test on main as the baseline, and the run delivers the fix alone;
 *   - a wrong first fix that breaks a passing test: the closure's retry prompt names it
 *     as go does (`TestShortFour`), and the right fix after it lets the run succeed.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TempGitRepo } from '../helpers/temp-git-repo.js';
import { teardownEnv } from '../helpers/temporal-env.js';
import { fixSession } from '../helpers/fix-session.js';
import { makeOrigin, removeStateDir, runOnFreshClone } from './fresh-clone-run.js';
import { RETRY_NAMES_TEST, wrongThenRightSession } from './retry-fix-session.js';
import * as shortid from './shortid-project.js';
import { assertSucceeded } from './run-diagnosis.js';

const WRONG = 'return strings.ReplaceAll(u.String()[:n+1], "-", "")';

const { source, tests } = shortid.sources('shortid');
const FILES = {
  'go.mod': shortid.goMod('example.com/e2e/shortid'),
  'shortid.go': source,
  'shortid_test.go': tests,
};

const ISSUE = {
  title: 'shortid.Short keeps a dash past 8 digits',
  body: 'Short(id, 12) returns "6ba7b810-9da"; it should return 12 hex digits, "6ba7b8109dad" (TestShortTwelve fails).',
};

let origin: TempGitRepo;

before(async () => {
  origin = await makeOrigin(FILES, (repo) => shortid.tidy(repo.dir));
});

after(async () => {
  await origin.cleanup();
  await removeStateDir();
  await teardownEnv();
});

test('a fresh clone: go mod download and a warm build cache, the red test kept as the baseline, the fix delivered', async () => {
  const session = fixSession({
    name: 'short id',
    fix: { path: 'shortid.go', old: shortid.BUGGY, new: shortid.RIGHT },
    testCommand: 'go test ./...',
  });
  const run = await runOnFreshClone({ origin, issue: ISSUE, session });
  assert.equal(run.cli.code, 0, `${run.cli.stderr}\n${run.cli.stdout}`);
  await assertSucceeded(run);
  assert.deepEqual(await run.changedOnBranch(), ['shortid.go']);
  const environment = (run.result?.environment ?? []).join('\n');
  assert.match(environment, /setup: `go mod download` ran/);
  assert.match(environment, /setup: `go test -count=1 -run='\^\$' \.\/\.\.\.` ran/);
  assert.match(environment, /preflight: tests: baseline .*TestShortTwelve/);
});

test('a wrong first fix: the retry prompt names the broken go test, the right fix succeeds', async () => {
  const session = wrongThenRightSession({
    name: 'short id',
    path: 'shortid.go',
    // Right for 12 digits, one too many for 4: TestShortFour passed on main.
    wrong: { old: shortid.BUGGY, new: WRONG },
    right: { old: WRONG, new: shortid.RIGHT },
    testCommand: 'go test ./...',
    failingTest: 'TestShortFour',
  });
  const run = await runOnFreshClone({ origin, issue: ISSUE, session });
  assert.equal(run.byRule[RETRY_NAMES_TEST], 1, `retry prompt did not name the test: ${JSON.stringify(run.byRule)}`);
  assert.equal(run.cli.code, 0, `${run.cli.stderr}\n${run.cli.stdout}`);
  await assertSucceeded(run);
  assert.deepEqual(await run.changedOnBranch(), ['shortid.go']);
});
