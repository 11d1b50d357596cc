/**
 * The word the step list gives a closing step's completion conditions: a closing that no
 * condition guards must not read as one the checks passed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checksNote } from '../../../src/workflows/completion/completion-loop.js';
import type { ConditionResult } from '../../../src/contracts/validation.js';

const result = (validator: string, passed: boolean) =>
  ({ validator, passed, summary: '' }) as unknown as ConditionResult;

test('passed, failed by name (once each), or none configured', () => {
  assert.equal(checksNote({ passed: true, results: [result('tests', true)] }), 'passed');
  assert.equal(
    checksNote({
      passed: false,
      results: [result('git-clean', false), result('tests', true), result('git-clean', false)],
    }),
    'failed: git-clean',
  );
  assert.equal(checksNote({ passed: true, results: [] }), 'none configured');
});
