/**
 * cancelOwnRun asks for the cancellation of exactly the run it is given, and a refusal
 * crosses the activity edge as a typed failure (the workflow then ends FAILED with type
 * RUN_CANCELLED rather than hang). The whole path on the real server is in
 * test/workflows/run-status.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApplicationFailure } from '@temporalio/common';
import { createRunEndActivities } from '../../../src/activities/run-end/run-end-activities.js';
import type { CancelOwnRunInput } from '../../../src/contracts/run-end.js';
import { AgentError } from '../../../src/contracts/errors.js';

test('cancelOwnRun requests the cancellation of the given run', async () => {
  const asked: CancelOwnRunInput[] = [];
  const activities = createRunEndActivities(async (input) => {
    asked.push(input);
  });
  await activities.cancelOwnRun({ workflowId: 'widgets-1a2b3c4d/issue-agent/issue-7', runId: 'r-1' });
  assert.deepEqual(asked, [{ workflowId: 'widgets-1a2b3c4d/issue-agent/issue-7', runId: 'r-1' }]);
});

test('a refused request crosses the edge as a typed failure', async () => {
  const activities = createRunEndActivities(async () => {
    throw new AgentError('TEMPORAL_UNREACHABLE', 'the server refused the cancel request');
  });
  await assert.rejects(
    activities.cancelOwnRun({ workflowId: 'w', runId: 'r' }),
    (err: unknown) => err instanceof ApplicationFailure && err.type === 'TEMPORAL_UNREACHABLE',
  );
});
