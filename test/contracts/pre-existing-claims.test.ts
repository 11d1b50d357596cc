/**
 * The closure's classification of tests red on the base (issue 37): which entries of
 * `pre_existing_failures` are claims, and the account the delivery texts and the run's
 * summary give of a closing's evidence.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  baselineAccountLine,
  baselineAccountOf,
  preExistingClaimsOf,
} from '../../src/contracts/pre-existing-claims.js';
import type { ConditionResult } from '../../src/contracts/validation.js';

test('a claim needs a test, unrelated: true and a reason; anything else is no claim', () => {
  const claims = preExistingClaimsOf({
    pre_existing_failures: [
      { test: ' test_b ', unrelated: true, reason: ' flaky clock ' },
      { test: 'test_c', unrelated: false, reason: 'related after all' },
      { test: 'test_d', reason: 'no unrelated flag' },
      { test: 'test_e', unrelated: true, reason: '   ' },
      { test: '', unrelated: true, reason: 'no name' },
      'test_f',
    ],
  });
  assert.deepEqual(claims, [{ test: 'test_b', reason: 'flaky clock' }]);
  assert.deepEqual(preExistingClaimsOf({}), []);
  assert.deepEqual(preExistingClaimsOf({ pre_existing_failures: { test: 'x', unrelated: true, reason: 'r' } }), []);
});

const tests = (params: ConditionResult['params']): ConditionResult => ({
  validator: 'tests',
  passed: true,
  summary: '`npm test` exited 1, accepted under baseline ignore: …',
  params,
  unrecoverable: false,
});

test('the account: claimed failures with their reasons and the fixed tests; blocking or unclaimed ones are not claims', () => {
  const evidence = [
    { validator: 'git-clean', passed: true, summary: 'clean', params: {}, unrecoverable: false },
    tests({
      baseCommit: 'a'.repeat(40),
      preExisting: [
        { name: 'old broken', unrelated: 'the clock test fails on every machine in 2026' },
        { name: 'other', blocks: 'named by the issue as "other"' },
      ],
      fixed: [{ name: 'sum adds' }],
    }),
  ];
  const account = baselineAccountOf(evidence);
  assert.deepEqual(account, {
    baseCommit: 'a'.repeat(40),
    unrelated: [{ name: 'old broken', reason: 'the clock test fails on every machine in 2026' }],
    fixed: ['sum adds'],
  });
  assert.equal(
    baselineAccountLine(account, 20),
    'failing on base too, classified unrelated by the closure: old broken (the clock test fail…); fixed since base: sum adds',
  );
  assert.equal(baselineAccountLine(baselineAccountOf([tests({ preExisting: [{ name: 'x' }] })])), '');
});
