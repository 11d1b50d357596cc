import assert from 'node:assert/strict';
import { test } from 'node:test';
import { codeAndReason } from '../../../src/workflows/run/failure-info.js';

test("a failed run's line names its code once, whether or not the activity's message already did", () => {
  assert.equal(
    codeAndReason('VALIDATION_ABORTED', 'VALIDATION_ABORTED: preflight of `cargo test` was cancelled'),
    'VALIDATION_ABORTED: preflight of `cargo test` was cancelled',
  );
  assert.equal(codeAndReason('ABORTED', 'the step budget is spent'), 'ABORTED: the step budget is spent');
  // Another code in the text is the reason's own words, kept.
  assert.equal(codeAndReason('ABORTED', 'MODEL_UNAVAILABLE: down'), 'ABORTED: MODEL_UNAVAILABLE: down');
});
