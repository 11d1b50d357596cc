/**
 * Reading a run's completed steps and their reset points from history: on a recorded
 * history (the demo run: ordinals from each step's checkpoint ref) and on a synthetic one
 * (runner steps too, and a completion not yet processed).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { defaultPayloadConverter } from '@temporalio/common';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { stepHistory, type HistoryEventLike } from '../../src/cli/step-history.js';
import { PROJECT_ROOT } from '../../src/host/project-root.js';

test('a recorded history: every completed step with the workflow task after it', () => {
  const file = join(PROJECT_ROOT, 'test', 'fixtures', 'histories', 'demo-success.json');
  const history = historyFromJSON(JSON.parse(readFileSync(file, 'utf8')));
  const found = stepHistory(history.events ?? []);
  assert.ok(found.worktreePath?.endsWith('issue-1'), found.worktreePath);
  assert.deepEqual(
    found.steps.map((s) => s.step),
    found.steps.map((_, i) => i + 1),
    'ordinals 1..n in order',
  );
  assert.equal(found.steps[0]?.stepId, 'initial.understand');
  for (const step of found.steps) {
    assert.match(step.checkpoint ?? '', /^[0-9a-f]{40}$/, 'each step ends at a checkpoint commit');
    assert.ok(step.resetEventId !== undefined && step.resetEventId > step.completedEventId);
    const event = history.events?.find((e) => Number(e.eventId) === step.resetEventId);
    assert.ok(event?.workflowTaskCompletedEventAttributes, 'the reset point is a WorkflowTaskCompleted event');
  }
});

test('checkpoints and runner steps; a completion not yet processed has no reset point', () => {
  const payloads = (value: unknown) => ({ payloads: [defaultPayloadConverter.toPayload(value)] });
  const events: HistoryEventLike[] = [
    {
      eventId: 5,
      activityTaskScheduledEventAttributes: {
        activityType: { name: 'queryStep' },
        input: payloads({ stepId: 'a', iteration: 1, checkpoint: { ref: 'refs/agent/x/issue-1/step-1' } }),
      },
    },
    {
      eventId: 7,
      activityTaskCompletedEventAttributes: { scheduledEventId: 5, result: payloads({ worktreeCheckpoint: 'c1' }) },
    },
    { eventId: 10, workflowTaskCompletedEventAttributes: {} },
    {
      eventId: 11,
      activityTaskScheduledEventAttributes: {
        activityType: { name: 'runStepRunner' },
        input: payloads({ stepId: 'closure.merge', checkpoint: { ref: 'refs/agent/x/issue-1/step-2' } }),
      },
    },
    {
      eventId: 13,
      activityTaskCompletedEventAttributes: { scheduledEventId: 11, result: payloads({ worktreeCheckpoint: 'c2' }) },
    },
  ];
  const { steps } = stepHistory(events);
  assert.deepEqual(
    steps.map((s) => [s.step, s.stepId, s.checkpoint, s.resetEventId]),
    [
      [1, 'a', 'c1', 10],
      [2, 'closure.merge', 'c2', undefined],
    ],
  );
});
