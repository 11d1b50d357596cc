/**
 * A Cargo workspace, as a new user meets it: a root package that is also the workspace
 * root, two member crates (`alpha`, listed first, with a test red on main for an
 * unrelated reason; `beta`, with the planted bug and one dependency from crates.io, itoa,
 * Cargo.lock committed), on a fresh clone with nothing fetched.
 *   - a planted bug and a scripted fix: `cargo test --workspace --no-fail-fast` is the
 *     detected test command (plain `cargo test` would test the root package alone and see
 *     no failure at all), the preflight names the failing tests of both members as the
 *     baseline, the issue's test blocks until it passes, the unrelated one does not, and
 *     the delivered diff is the fix alone;
 *   - a second run of the same repository and lockfile fetches nothing.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execa } from 'execa';
import type { TempGitRepo } from '../helpers/temp-git-repo.js';
import { teardownEnv } from '../helpers/temporal-env.js';
import { fixSession } from '../helpers/fix-session.js';
import { makeOrigin, removeStateDir, runOnFreshClone } from './fresh-clone-run.js';
import { assertSucceeded } from './run-diagnosis.js';

const BUGGY = 'if x < lo { lo } else { x }';
const RIGHT = 'x.max(lo).min(hi)';

const crate = (name: string, deps = ''): string =>
  `[package]\nname = "${name}"\nversion = "0.1.0"\nedition = "2021"\n${deps}`;

const FILES = {
  'Cargo.toml': `${crate('app')}\n[workspace]\nmembers = ["crates/alpha", "crates/beta"]\n`,
  '.gitignore': 'target/\n',
  'src/lib.rs': [
    '//! The application: nothing but a smoke test of its own.',
    "pub fn name() -> &'static str {",
    '    "app"',
    '}',
    '',
    '#[cfg(test)]',
    'mod tests {',
    '    #[test]',
    '    fn has_a_name() {',
    '        assert_eq!(super::name(), "app");',
    '    }',
    '}',
    '',
  ].join('\n'),
  'crates/alpha/Cargo.toml': crate('alpha'),
  'crates/alpha/src/lib.rs': [
    '/// Rounds half away from zero.',
    'pub fn legacy_round(x: f64) -> f64 {',
    '    x.round()',
    '}',
    '',
    '#[cfg(test)]',
    'mod tests {',
    '    // Red on main, unrelated to the issue: the old rounding was half to even.',
    '    #[test]',
    '    fn keeps_the_old_rounding() {',
    '        assert_eq!(super::legacy_round(2.5), 2.0);',
    '    }',
    '}',
    '',
  ].join('\n'),
  'crates/beta/Cargo.toml': crate('beta', '\n[dependencies]\nitoa = "=1.0.11"\n'),
  'crates/beta/src/lib.rs': [
    '/// x within [lo, hi].',
    'pub fn clamp(x: i32, lo: i32, hi: i32) -> i32 {',
    `    ${BUGGY}`,
    '}',
    '',
    '/// The clamped value as text.',
    'pub fn show(x: i32, lo: i32, hi: i32) -> String {',
    '    itoa::Buffer::new().format(clamp(x, lo, hi)).to_string()',
    '}',
    '',
    '#[cfg(test)]',
    'mod tests {',
    '    use super::*;',
    '',
    '    #[test]',
    '    fn lowers_values_above_the_range() {',
    '        assert_eq!(clamp(15, 0, 10), 10);',
    '    }',
    '',
    '    #[test]',
    '    fn raises_values_below_the_range() {',
    '        assert_eq!(show(-3, 0, 10), "0");',
    '    }',
    '}',
    '',
  ].join('\n'),
};

const ISSUE = {
  title: 'beta::clamp ignores the upper bound',
  body: 'clamp(15, 0, 10) returns 15; it should return 10 (the test lowers_values_above_the_range fails).',
};
const SESSION = fixSession({
  name: 'clamp upper bound',
  fix: { path: 'crates/beta/src/lib.rs', old: BUGGY, new: RIGHT },
  testCommand: 'cargo test --workspace --no-fail-fast',
  unrelated: [{ test: 'tests::keeps_the_old_rounding', reason: '2.5 rounds to 3.0 in Rust; not the clamp issue' }],
});

let origin: TempGitRepo;

before(async () => {
  origin = await makeOrigin(FILES, async (repo) => {
    await execa('cargo', ['generate-lockfile'], { cwd: repo.dir });
  });
});

after(async () => {
  await origin.cleanup();
  await removeStateDir();
  await teardownEnv();
});

test('a fresh clone: every member crate tested, both members failures in the baseline, the fix delivered', async () => {
  const run = await runOnFreshClone({ origin, issue: ISSUE, session: SESSION });
  assert.equal(run.cli.code, 0, `${run.cli.stderr}\n${run.cli.stdout}`);
  await assertSucceeded(run);
  assert.deepEqual(await run.changedOnBranch(), ['crates/beta/src/lib.rs']);
  const environment = (run.result?.environment ?? []).join('\n');
  assert.match(environment, /setup: `cargo fetch --locked` ran/);
  assert.match(environment, /preflight: tests: baseline .*tests::keeps_the_old_rounding/);
  assert.match(environment, /preflight: tests: baseline .*tests::lowers_values_above_the_range/);
  assert.match(run.result?.reason ?? '', /fixed since base: tests::lowers_values_above_the_range/);
});

test('a second run of the same repository and lockfile fetches nothing', async () => {
  const run = await runOnFreshClone({ origin, issue: ISSUE, session: SESSION });
  await assertSucceeded(run);
  assert.match((run.result?.environment ?? []).join('\n'), /setup: every install came from the cache/);
});
