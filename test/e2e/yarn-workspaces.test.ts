/**
 * A yarn classic workspace monorepo, as a new user meets it: yarn.lock committed, yarn not
 * on PATH, the root test script `yarn workspaces run test`, two workspaces testing with
 * node:test (`@mono/alpha`, listed first, with a test red on main for an unrelated
 * reason; `@mono/beta`, with the planted bug), on a fresh clone with nothing installed.
 *   - a planted bug and a scripted fix: yarn 1.22.22 is fetched and installs from the
 *     lockfile; the detected test command is `npm test --workspaces --if-present` (yarn's
 *     own run stops at alpha's failure, so beta's tests would never run), the baseline
 *     names the failing tests of both workspaces, the unrelated one does not block, and
 *     the delivered diff is the fix alone;
 *   - a second run of the same repository and lockfile installs from the cache.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TempGitRepo } from '../helpers/temp-git-repo.js';
import { teardownEnv } from '../helpers/temporal-env.js';
import { fixSession } from '../helpers/fix-session.js';
import { makeOriginLockedBy, removeStateDir, runOnFreshClone } from './fresh-clone-run.js';
import { assertSucceeded } from './run-diagnosis.js';

const YARN = '1.22.22';
const BUGGY = 'return Math.max(x, lo);';
const RIGHT = 'return Math.min(Math.max(x, lo), hi);';

const workspace = (name: string): string =>
  `${JSON.stringify({ name, version: '1.0.0', license: 'MIT', scripts: { test: 'node --test' } }, null, 2)}\n`;

const FILES = {
  'package.json': `${JSON.stringify(
    {
      name: 'mono',
      private: true,
      license: 'MIT',
      workspaces: ['packages/*'],
      scripts: { test: 'yarn workspaces run test' },
    },
    null,
    2,
  )}\n`,
  '.gitignore': 'node_modules/\n',
  'packages/alpha/package.json': workspace('@mono/alpha'),
  'packages/alpha/test/legacy.test.js': [
    "const test = require('node:test');",
    "const assert = require('node:assert/strict');",
    '',
    '// Red on main, unrelated to the issue.',
    "test('legacy keeps the old rounding', () => assert.equal(Math.round(2.5), 2));",
    '',
  ].join('\n'),
  'packages/beta/package.json': workspace('@mono/beta'),
  'packages/beta/clamp.js': [
    '/** x within [lo, hi]. */',
    'function clamp(x, lo, hi) {',
    `  ${BUGGY}`,
    '}',
    '',
    'module.exports = { clamp };',
    '',
  ].join('\n'),
  'packages/beta/test/clamp.test.js': [
    "const test = require('node:test');",
    "const assert = require('node:assert/strict');",
    "const { clamp } = require('../clamp.js');",
    '',
    "test('clamp lowers values above the range', () => assert.equal(clamp(15, 0, 10), 10));",
    "test('clamp raises values below the range', () => assert.equal(clamp(-3, 0, 10), 0));",
    '',
  ].join('\n'),
};

const ISSUE = {
  title: 'clamp() in @mono/beta ignores the upper bound',
  body: 'clamp(15, 0, 10) returns 15; it should return 10 (the test "clamp lowers values above the range" fails).',
};
const SESSION = fixSession({
  name: 'clamp upper bound',
  fix: { path: 'packages/beta/clamp.js', old: BUGGY, new: RIGHT },
  testCommand: 'npm test --workspaces --if-present',
  unrelated: [{ test: 'legacy keeps the old rounding', reason: 'Math.round(2.5) is 3; not the clamp issue' }],
});

let origin: TempGitRepo;

before(async () => {
  // The lockfile a yarn classic user commits, made with yarn fetched from the registry.
  origin = await makeOriginLockedBy(FILES, `yarn@${YARN}`, ['install', '--non-interactive']);
});

after(async () => {
  await origin.cleanup();
  await removeStateDir();
  await teardownEnv();
});

test('a fresh clone: yarn fetched, every workspace tested to the end, both failures in the baseline, the fix delivered', async () => {
  const run = await runOnFreshClone({ origin, issue: ISSUE, session: SESSION });
  assert.equal(run.cli.code, 0, `${run.cli.stderr}\n${run.cli.stdout}`);
  await assertSucceeded(run);
  assert.deepEqual(await run.changedOnBranch(), ['packages/beta/clamp.js']);
  const environment = (run.result?.environment ?? []).join('\n');
  assert.match(environment, /setup: `\S*yarn install --frozen-lockfile/);
  assert.match(environment, /preflight: tests: baseline .*legacy keeps the old rounding/);
  assert.match(environment, /preflight: tests: baseline .*clamp lowers values above the range/);
  assert.match(run.result?.reason ?? '', /fixed since base: clamp lowers values above the range/);
});

test('a second run of the same repository and lockfile installs from the cache', async () => {
  const run = await runOnFreshClone({ origin, issue: ISSUE, session: SESSION });
  await assertSucceeded(run);
  assert.match((run.result?.environment ?? []).join('\n'), /setup: every install came from the cache/);
});
