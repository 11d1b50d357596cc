/**
 * Soft and hard USD limits, pure (issue 40): the soft limit (`maxUsd`) is where a run asks
 * for more; an extension never raises it past the hard limit (`hardMaxUsd`), which no
 * payload can raise; the run is at its hard limit when the limit in force is the hard one
 * and is spent.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { atHardLimit, usdLimit } from '../../../../src/contracts/usage.js';
import { checkBudgetArgs } from '../../../../src/workflows/run/message-checks.js';
import { budgetStatus, initialRunState } from '../../../../src/workflows/run/state/run-state.js';
import { raiseBudget } from '../../../../src/workflows/run/state/run-transitions.js';

test('an extension stops at the hard limit, and the hard limit is not raised by one', () => {
  const state = initialRunState('s', { maxUsd: 1, hardMaxUsd: 3 });
  assert.deepEqual(raiseBudget(state, { maxUsd: 2 }).budget, { maxUsd: 2, hardMaxUsd: 3 });
  assert.deepEqual(raiseBudget(state, { maxUsd: 50 }).budget, { maxUsd: 3, hardMaxUsd: 3 });
  assert.deepEqual(raiseBudget(state, { hardMaxUsd: 100, maxUsd: 50 }).budget, { maxUsd: 3, hardMaxUsd: 3 });
  assert.equal(checkBudgetArgs({ hardMaxUsd: 100 }).ok, false, 'no signal or update carries a hard limit');
  assert.deepEqual(raiseBudget(initialRunState('s', { maxUsd: 1 }), { maxUsd: 50 }).budget, { maxUsd: 50 });
});

test('the limit in force and when it is the hard one', () => {
  assert.equal(usdLimit({ maxUsd: 1, hardMaxUsd: 3 }), 1);
  assert.equal(usdLimit({ maxUsd: 5, hardMaxUsd: 3 }), 3);
  assert.equal(usdLimit({ hardMaxUsd: 3 }), 3);
  assert.equal(usdLimit({}), undefined);
  assert.equal(atHardLimit({ maxUsd: 1, hardMaxUsd: 3 }, 1.5), false, 'the soft limit asks');
  assert.equal(atHardLimit({ maxUsd: 3, hardMaxUsd: 3 }, 3), true);
  assert.equal(atHardLimit({ hardMaxUsd: 3 }, 3.2), true);
  assert.equal(atHardLimit({ maxUsd: 3 }, 9), false, 'no hard limit: never');
  const spent = { ...initialRunState('s', { maxUsd: 5, hardMaxUsd: 3 }), costUsd: 3 };
  assert.deepEqual(budgetStatus(spent), { ok: false, reason: 'cost $3.0000 reached the hard limit of $3' });
});
