/**
 * pnpm + vitest, as a new user meets it: `packageManager: "pnpm@9.15.0"` with pnpm not
 * on PATH, a committed pnpm-lock.yaml and vitest 3 as a devDependency, on a fresh clone
 * with nothing installed.
 *   - a planted bug and a scripted fix: the environment phase fetches pnpm 9.15.0 from
 *     the npm registry and runs `pnpm install --frozen-lockfile`, `pnpm test` is the
 *     detected test command, the preflight keeps the red test on main as the baseline,
 *     and the run delivers a branch whose diff is the fix alone;
 *   - a wrong first fix that breaks a passing test: the closure's retry prompt names it
 *     as vitest does (`slugify > trims the ends`), and the right fix lets the run succeed.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TempGitRepo } from '../helpers/temp-git-repo.js';
import { teardownEnv } from '../helpers/temporal-env.js';
import { fixSession } from '../helpers/fix-session.js';
import { makeOriginLockedBy, removeStateDir, runOnFreshClone } from './fresh-clone-run.js';
import { RETRY_NAMES_TEST, wrongThenRightSession } from './retry-fix-session.js';
import { assertSucceeded } from './run-diagnosis.js';

const PNPM = '9.15.0';

const PACKAGE = {
  name: 'e2e-slug',
  version: '1.0.0',
  private: true,
  type: 'module',
  packageManager: `pnpm@${PNPM}`,
  scripts: { test: 'vitest run' },
  devDependencies: { vitest: '3.2.4' },
};

const BUGGY = "return text.trim().toLowerCase().replace(' ', '-');";
const WRONG = "return text.toLowerCase().replaceAll(' ', '-');";
const RIGHT = "return text.trim().toLowerCase().replace(/\\s+/g, '-');";

const FILES = {
  'package.json': `${JSON.stringify(PACKAGE, null, 2)}\n`,
  '.gitignore': 'node_modules/\n',
  'src/slug.js': [
    '/** A URL slug: lower case, words joined by one dash. */',
    'export function slugify(text) {',
    `  ${BUGGY}`,
    '}',
    '',
  ].join('\n'),
  'test/slug.test.js': [
    "import { describe, expect, it } from 'vitest';",
    "import { slugify } from '../src/slug.js';",
    '',
    "describe('slugify', () => {",
    "  it('trims the ends', () => expect(slugify('  Hello ')).toBe('hello'));",
    "  it('joins every word with one dash', () => expect(slugify('Hello big world')).toBe('hello-big-world'));",
    '});',
    '',
  ].join('\n'),
};

const ISSUE = {
  title: 'slugify() keeps spaces after the first word',
  body: "slugify('Hello big world') returns 'hello-big world'; it should return 'hello-big-world' (slugify > joins every word with one dash fails).",
};

let origin: TempGitRepo;

before(async () => {
  // The lockfile a pnpm user commits, made with the pinned pnpm fetched from the registry.
  origin = await makeOriginLockedBy(FILES, `pnpm@${PNPM}`, ['install', '--lockfile-only']);
});

after(async () => {
  await origin.cleanup();
  await removeStateDir();
  await teardownEnv();
});

test('a fresh clone: pnpm fetched, pnpm install from the lockfile, the red test kept as the baseline, the fix delivered', async () => {
  const session = fixSession({
    name: 'slug',
    fix: { path: 'src/slug.js', old: BUGGY, new: RIGHT },
    testCommand: 'pnpm test',
  });
  const run = await runOnFreshClone({ origin, issue: ISSUE, session });
  assert.equal(run.cli.code, 0, `${run.cli.stderr}\n${run.cli.stdout}`);
  await assertSucceeded(run);
  assert.deepEqual(await run.changedOnBranch(), ['src/slug.js']);
  const environment = (run.result?.environment ?? []).join('\n');
  // Not on PATH: fetched from the npm registry into the harness's tools cache, then used.
  assert.match(environment, /detected: pnpm 9\.15\.0 \(package\.json packageManager\)/);
  assert.match(environment, /setup: `npm install --userconfig \/dev\/null --prefix \S+\/tools\/pnpm-9\.15\.0 /);
  assert.match(environment, /setup: `\S*pnpm install --frozen-lockfile/);
  assert.match(environment, /preflight: tests: baseline .*slugify > joins every word with one dash/);
});

test('a wrong first fix: the retry prompt names the broken vitest test, the right fix succeeds', async () => {
  const session = wrongThenRightSession({
    name: 'slug',
    path: 'src/slug.js',
    // Every space becomes a dash, but the ends are no longer trimmed: "trims the ends" passed on main.
    wrong: { old: BUGGY, new: WRONG },
    right: { old: WRONG, new: RIGHT },
    testCommand: 'pnpm test',
    failingTest: 'slugify > trims the ends',
  });
  const run = await runOnFreshClone({ origin, issue: ISSUE, session });
  assert.equal(run.byRule[RETRY_NAMES_TEST], 1, `retry prompt did not name the test: ${JSON.stringify(run.byRule)}`);
  assert.equal(run.cli.code, 0, `${run.cli.stderr}\n${run.cli.stdout}`);
  await assertSucceeded(run);
  assert.deepEqual(await run.changedOnBranch(), ['src/slug.js']);
});
