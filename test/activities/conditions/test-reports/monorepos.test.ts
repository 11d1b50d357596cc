/**
 * Failures of a monorepo's test command, named per member, from real runs on small
 * generated monorepos (two members, an unrelated red test in the first, the planted bug
 * in the second): `cargo test --workspace --no-fail-fast` (cargo 1.95, a root package
 * with two member crates), `npm test --workspaces --if-present` (npm 11, node:test and
 * mocha 10), a pnpm 9 `-r --no-bail` run (node:test lines behind pnpm's prefixes) and the
 * Go every-module loop (go 1.26). Every member's failures are named, each with its file.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseTestFailures } from '../../../../src/activities/conditions/test-reports/parse-test-failures.js';
import { fixture } from '../fixtures.js';

const named = (name: string) =>
  parseTestFailures(fixture(name)).map((t) => [t.name, t.file, t.excerpt?.replace(/\s+/g, ' ')]);

test("a Cargo workspace: every crate's failures with the crate file, an integration test without a panic in its crate", () => {
  assert.deepEqual(named('cargo-workspace.txt'), [
    ['tests::rounds_half_down', 'crates/alpha/src/lib.rs', 'assertion `left == right` failed left: 3.0 right: 2.0'],
    ['tests::lowers_above', 'crates/beta/src/lib.rs', 'assertion `left == right` failed left: 15 right: 10'],
    ['api_clamps', 'crates/beta/tests/api.rs', 'assertion `left == right` failed left: 20 right: 10'],
    // `Running tests/api.rs` is relative to the crate; its sibling's panic says which crate.
    ['api_err', 'crates/beta/tests/api.rs', 'Error: "nope"'],
  ]);
});

test("npm workspaces, a pnpm recursive run and the Go loop: both members' failures named", () => {
  const nodeTest = (root: string) => [
    ['legacy keeps the old rounding', `/tmp/mono41/${root}/packages/alpha/test/legacy.test.js`],
    ['clamp lowers values above the range', `/tmp/mono41/${root}/packages/beta/test/clamp.test.js`],
  ];
  const names = (name: string) => named(name).map(([n, f]) => [n, f]);
  assert.deepEqual(names('npm-workspaces-node-test.txt'), nodeTest('nw'));
  assert.deepEqual(names('pnpm-recursive-node-test.txt'), nodeTest('pw'));
  assert.deepEqual(names('go-test-modules.txt'), [
    ['TestAdd', 'root_test.go'],
    ['TestMul', 'lib_test.go'],
  ]);
});

test('npm workspaces running mocha: each workspace parsed on its own, its relative files placed in it', () => {
  // Read as one output, the two mocha summaries (both numbering from `1)`) ran together into a bogus name.
  assert.deepEqual(
    named('npm-workspaces-mocha.txt').map(([n, f]) => [n, f]),
    [
      ['legacy keeps the old rounding', '/tmp/mono41/nm/packages/alpha/test/legacy.test.js'],
      ['clamp lowers values above the range', '/tmp/mono41/nm/packages/beta/test/clamp.test.js'],
      ['clamp keeps values inside', '/tmp/mono41/nm/packages/beta/test/clamp.test.js'],
    ],
  );
});
