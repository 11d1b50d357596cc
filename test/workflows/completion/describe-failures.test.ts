/**
 * A failed condition in a run's reason: its summary, then its list items as a person
 * reads them, never as JSON, and not twice.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeFailures, unrecoverableReason } from '../../../src/workflows/completion/describe-failures.js';
import type { ConditionResult } from '../../../src/contracts/activities.js';

const result = (validator: string, summary: string, params: ConditionResult['params']): ConditionResult =>
  ({ validator, passed: false, summary, params, unrecoverable: false }) as ConditionResult;

test('a weakened-test finding the summary names is not repeated as JSON; one it does not name is said as file:line what', () => {
  const line = describeFailures([
    result(
      'test-integrity',
      '2 weakened test(s) against 44325da77b1b: isnil_test.go:6 skips a test: `t.Skip("flaky")`',
      {
        file: 'isnil_test.go',
        line: 6,
        findings: [
          { kind: 'test-skipped', file: 'isnil_test.go', line: 6, finding: 'skips a test: `t.Skip("flaky")`' },
          { kind: 'test-deleted', file: 'other_test.go', line: 1, finding: 'test file deleted' },
        ],
      },
    ),
  ]);
  assert.equal(
    line,
    'test-integrity: 2 weakened test(s) against 44325da77b1b: isnil_test.go:6 skips a test: `t.Skip("flaky")` (findings: other_test.go:1 test file deleted)',
  );
  assert.doesNotMatch(line, /\{"kind"/);
});

test('named tests and dirty files are listed; other values never as JSON objects', () => {
  const line = describeFailures([
    result('tests', 'npm test failed: sum adds', { failed: [{ name: 'sum adds' }, { name: 'sum subtracts' }] }),
    result('git-clean', 'uncommitted changes', { untrackedFiles: ['a.txt'], changedFiles: [] }),
  ]);
  assert.equal(
    line,
    'tests: npm test failed: sum adds (failed: sum adds, sum subtracts); git-clean: uncommitted changes (untracked files: a.txt)',
  );
});

test("the baseline's lists are said by what they mean, other keys as words, never as field names", () => {
  const line = describeFailures([
    result('tests', '`npm test` exited 1', {
      failedTests: [{ name: 'a' }],
      preExisting: [{ name: 'b' }],
      regressions: [{ name: 'a' }],
      unclassified: [{ name: 'b' }],
      fixed: [{ name: 'c' }],
    }),
  ]);
  assert.equal(
    line,
    'tests: `npm test` exited 1 (failed tests: a; failing on the base too: b; not failing on the base: a; not classified as unrelated: b; no longer failing: c)',
  );
});

test('a check that cannot pass by retrying comes first, and every other failed check is told after it', () => {
  const moved = {
    ...result('run-branch', 'the branch moved from 1111111 to 2222222 while the checks ran.', {}),
    unrecoverable: true,
  };
  const integrity = result('test-integrity', '1 weakened test(s): a.test.js:3 skips a test', {});
  const dirty = result('git-clean', 'uncommitted changes', { untrackedFiles: ['x.txt'] });
  assert.equal(
    unrecoverableReason([integrity, moved, dirty], moved),
    'validator "run-branch" cannot succeed by retrying: the branch moved from 1111111 to 2222222 while the checks ran; also failed: test-integrity: 1 weakened test(s): a.test.js:3 skips a test; git-clean: uncommitted changes (untracked files: x.txt)',
  );
  assert.equal(
    unrecoverableReason([moved], moved),
    'validator "run-branch" cannot succeed by retrying: the branch moved from 1111111 to 2222222 while the checks ran.',
  );
});
