/**
 * A delivery that did not finish is named in the failure reason by the word the user chose
 * it with (`--deliver branch`), not by the stored effect name `keep-branch`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { effectLabel, undeliveredEffect } from '../../src/contracts/delivery.js';

test('the first failed or skipped effect, labelled as the flag says', () => {
  const boundary = {
    effects: [
      { name: 'close-issue', status: 'done', detail: 'closed #5' },
      { name: 'keep-branch', status: 'failed', detail: 'branch agent/issue-5 no longer exists' },
      { name: 'remove-worktree', status: 'skipped', detail: 'kept for the retry' },
    ],
  } as const;
  assert.equal(undeliveredEffect(boundary), 'branch: branch agent/issue-5 no longer exists');
  assert.equal(undeliveredEffect({ effects: [{ name: 'push', status: 'done', detail: 'pushed' }] }), undefined);
  assert.equal(effectLabel('push'), 'push');
});
