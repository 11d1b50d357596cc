/** `--deliver`: the closed set, the defaults by issue source, and pr refused with local issues. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deliveryOf } from '../../src/cli/flags/delivery-flag.js';
import { COMMANDS, renderHelp } from '../../src/cli/flags/command-specs.js';

test('defaults: pr with GitHub issues, branch with local issues; explicit choices pass through', () => {
  assert.equal(deliveryOf({}, 'github'), 'pr');
  assert.equal(deliveryOf({}, 'local'), 'branch');
  for (const mode of ['branch', 'merge', 'squash'] as const) assert.equal(deliveryOf({ deliver: mode }, 'local'), mode);
  assert.equal(deliveryOf({ deliver: 'merge' }, 'github'), 'merge');
});

test('an unknown mode and pr with local issues are usage errors naming --deliver', () => {
  assert.throws(
    () => deliveryOf({ deliver: 'rebase' }, 'local'),
    (e: Error & { where?: string }) =>
      /--deliver must be one of branch, pr, merge, squash, got "rebase"/.test(e.message) && e.where === '--deliver',
  );
  assert.throws(() => deliveryOf({ deliver: 'pr' }, 'local'), /use it with --issues github/);
});

test('start-run and start-batch document the flag', () => {
  for (const name of ['start-run', 'start-batch'])
    assert.match(renderHelp(COMMANDS[name]!), /--deliver branch\|pr\|merge\|squash/);
});
