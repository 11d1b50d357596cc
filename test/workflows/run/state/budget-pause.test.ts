/** The budget pause's settings, pure (issue 27 item 4): the run option, the default, the wording. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  budgetPauseTimeoutMs,
  DEFAULT_BUDGET_PAUSE_MS,
  formatPause,
} from '../../../../src/workflows/run/state/budget-pause.js';

test('the pause timeout is the run option when positive, else 24 h', () => {
  assert.equal(DEFAULT_BUDGET_PAUSE_MS, 86_400_000);
  assert.equal(budgetPauseTimeoutMs({}), DEFAULT_BUDGET_PAUSE_MS);
  assert.equal(budgetPauseTimeoutMs({ budgetPauseTimeoutMs: 5000 }), 5000);
  assert.equal(budgetPauseTimeoutMs({ budgetPauseTimeoutMs: 0 }), DEFAULT_BUDGET_PAUSE_MS);
  assert.equal(budgetPauseTimeoutMs({ budgetPauseTimeoutMs: Number.NaN }), DEFAULT_BUDGET_PAUSE_MS);
});

test('the reason names the pause in the largest whole unit', () => {
  assert.equal(formatPause(86_400_000), '24 h');
  assert.equal(formatPause(120_000), '2 min');
  assert.equal(formatPause(90_000), '90 s');
  assert.equal(formatPause(1500), '1.5 s');
});
