/**
 * npm + mocha, as a new user meets it: fresh clones with nothing installed.
 *   - a planted bug and a scripted fix: the environment phase runs `npm ci`, the preflight
 *     names the red tests on main (mocha's full titles) as the baseline; the issue names the
 *     planted bug's test, so the run completes only once it passes, while the unrelated red
 *     test does not block (`baseline: ignore`) once the closure classified it as unrelated;
 *     the branch's diff is the fix alone;
 *   - a second run of the same repository and lockfile installs from the cache;
 *   - a broken `commands.setup` and a missing test runner fail as ENVIRONMENT_FAILED with
 *     zero model requests; missing model credentials fail before anything is created.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execa } from 'execa';
import type { TempGitRepo } from '../helpers/temp-git-repo.js';
import { teardownEnv } from '../helpers/temporal-env.js';
import { fixSession } from '../helpers/fix-session.js';
import { CLAMP_BUGGY, CLAMP_FILES, CLAMP_PACKAGE, CLAMP_RIGHT, lockClampOrigin } from './clamp-project.js';
import { makeOrigin, removeStateDir, runOnFreshClone } from './fresh-clone-run.js';
import { assertSucceeded } from './run-diagnosis.js';

const FILES = {
  ...CLAMP_FILES,
  // Red on main, unrelated to the issue: `baseline: ignore` must let the run finish.
  'test/legacy.test.js': [
    "const assert = require('node:assert/strict');",
    "describe('legacy', () => {",
    "  it('keeps the old rounding', () => assert.equal(Math.round(2.5), 2));",
    '});',
    '',
  ].join('\n'),
};

const ISSUE = {
  title: 'clamp() ignores the upper bound',
  body: 'clamp(15, 0, 10) returns 15; it should return 10 (the test "clamp lowers values above the range" fails).',
};
const SESSION = fixSession({
  name: 'clamp upper bound',
  fix: { path: 'lib/clamp.js', old: CLAMP_BUGGY, new: CLAMP_RIGHT },
  testCommand: 'npm test',
  unrelated: [{ test: 'legacy keeps the old rounding', reason: 'Math.round(2.5) is 3; not the clamp issue' }],
});

let origin: TempGitRepo;

before(async () => {
  origin = await makeOrigin(FILES, lockClampOrigin);
});

after(async () => {
  await origin.cleanup();
  await removeStateDir();
  await teardownEnv();
});

// The fixture repository's two runs in order (the second reuses the first's cache); the other
// three cases have their own repository or stop before a workflow exists: all four at once.
describe('npm and mocha', { concurrency: 4 }, () => {
  describe('the fixture repository, twice', { concurrency: 1 }, () => {
    test('a fresh clone: npm ci, the red test on main kept as the baseline, the fix delivered on its branch', async () => {
      const run = await runOnFreshClone({ origin, issue: ISSUE, session: SESSION });
      assert.equal(run.cli.code, 0, `${run.cli.stderr}\n${run.cli.stdout}`);
      await assertSucceeded(run);
      assert.deepEqual(await run.changedOnBranch(), ['lib/clamp.js']);
      const environment = (run.result?.environment ?? []).join('\n');
      assert.match(environment, /npm ci/);
      assert.match(environment, /preflight: tests: baseline .*legacy keeps the old rounding/);
      // The closure's claim and the test the fix made pass, in the run's summary (issue 37).
      assert.match(
        run.result?.reason ?? '',
        /classified unrelated by the closure: legacy keeps the old rounding \(Math/,
      );
      assert.match(run.result?.reason ?? '', /fixed since base: clamp lowers values above the range/);
    });

    test('a second run of the same repository and lockfile installs from the cache', async () => {
      const run = await runOnFreshClone({ origin, issue: ISSUE, session: SESSION });
      await assertSucceeded(run);
      assert.match((run.result?.environment ?? []).join('\n'), /setup: every install came from the cache/);
    });
  });

  test('a broken commands.setup is ENVIRONMENT_FAILED before any model request', async () => {
    const broken = await makeOrigin({
      ...FILES,
      '.agent/config.json': `${JSON.stringify({ commands: { setup: 'echo "registry unreachable" >&2; exit 3' } })}\n`,
    });
    try {
      const run = await runOnFreshClone({ origin: broken, issue: ISSUE, session: SESSION });
      assert.equal(run.cli.code, 1);
      assert.equal(run.result?.code, 'ENVIRONMENT_FAILED', run.cli.stderr);
      assert.match(run.result?.reason ?? '', /exit 3/);
      assert.match(run.result?.reason ?? '', /registry unreachable/);
      assert.equal(run.modelRequests, 0);
    } finally {
      await broken.cleanup();
    }
  });

  test('a missing test runner is ENVIRONMENT_FAILED naming the command, before any model request', async () => {
    const missing = await makeOrigin({
      ...FILES,
      'package.json': `${JSON.stringify({ ...CLAMP_PACKAGE, scripts: { test: 'vitest-that-is-not-installed run' } }, null, 2)}\n`,
      // The stop itself, as a user who turned the agent-written setup off gets it (test/e2e/agent-setup.test.ts has it on).
      '.agent/config.json': `${JSON.stringify({ environment: { agentSetup: false } })}\n`,
    });
    try {
      const run = await runOnFreshClone({ origin: missing, issue: ISSUE, session: SESSION });
      assert.equal(run.cli.code, 1);
      assert.equal(run.result?.code, 'ENVIRONMENT_FAILED', run.cli.stderr);
      assert.match(run.result?.reason ?? '', /npm test/);
      assert.match(run.result?.reason ?? '', /vitest-that-is-not-installed/);
      assert.equal(run.modelRequests, 0);
    } finally {
      await missing.cleanup();
    }
  });

  test('without model credentials nothing is created: no workflow, no worktree, no branch', async () => {
    const run = await runOnFreshClone({ origin, issue: ISSUE, session: SESSION, env: { ANTHROPIC_BASE_URL: '' } });
    assert.equal(run.cli.code, 1);
    assert.match(run.cli.stderr, /MODEL_AUTH/);
    assert.match(run.cli.stderr, /ANTHROPIC_API_KEY/);
    assert.equal(run.result, undefined);
    const worktrees = await execa('git', ['worktree', 'list'], { cwd: run.clone });
    assert.equal(worktrees.stdout.trim().split('\n').length, 1);
    const branches = await execa('git', ['branch', '--list', 'agent/*'], { cwd: run.clone });
    assert.equal(branches.stdout.trim(), '');
  });
});
