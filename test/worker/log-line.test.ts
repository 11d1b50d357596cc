/**
 * The worker's log lines on stderr: a person's line by default (message, workflow,
 * activity, the error's code and message), every field with LOG_FORMAT=json, and never a
 * task token or an empty `"error":{}` in either.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApplicationFailure } from '@temporalio/common';
import { formatLogLine, isNoise, LogFormat, logFormatOf } from '../../src/worker/log-line.js';
import { assertTerminalSafe, HOSTILE } from '../helpers/hostile-text.js';

const entry = {
  time: '2026-11-27T07:10:44.306Z',
  level: 'WARN',
  message: 'Activity failed',
  meta: {
    sdkComponent: 'worker',
    taskToken: 'CiQwMWEyMTk4Ny04NDQ4',
    activityType: 'queryStep',
    workflowId: 'r/issue-agent/issue-4',
    attempt: 1,
    error: { type: 'BUDGET_EXHAUSTED', message: 'USD budget exhausted', nonRetryable: true },
    empty: {},
  },
};

test('text: the message and what places it, no metadata dump, no task token', () => {
  const line = formatLogLine(entry, logFormatOf({}));
  assert.equal(
    line,
    '2026-11-27T07:10:44.306Z [WARN] Activity failed (workflowId r/issue-agent/issue-4; activityType queryStep; attempt 1; BUDGET_EXHAUSTED: USD budget exhausted)',
  );
  assert.equal(
    formatLogLine({ ...entry, meta: { error: {} } }, 'text'),
    '2026-11-27T07:10:44.306Z [WARN] Activity failed',
  );
});

test('json: every field but the task token and empty values', () => {
  const line = formatLogLine(entry, logFormatOf({ LOG_FORMAT: 'JSON' }));
  assert.doesNotMatch(line, /taskToken|CiQw|"empty"/);
  assert.match(line, /"sdkComponent":"worker"/);
  assert.match(line, /"nonRetryable":true/);
});

test('an activity failure quoting the model or the tested code drives no terminal, in either format', () => {
  const hostile = {
    ...entry,
    message: `Activity failed ${HOSTILE}`,
    meta: { ...entry.meta, error: { message: HOSTILE } },
  };
  for (const format of [LogFormat.Text, LogFormat.Json]) {
    const line = formatLogLine(hostile, format);
    assertTerminalSafe(line, `the ${format} log line`);
    assert.match(line, /Activity failed Done \\x1b\]52;c;/);
  }
  const json = formatLogLine(hostile, LogFormat.Json);
  const fields = JSON.parse(json.slice(json.indexOf(' {') + 1)) as { error: { message: string } };
  assert.equal(fields.error.message, HOSTILE, 'the JSON fields keep their values');
});

test("noise: the SDK's `Workflow failed` and a final `Activity failed` only where the caller reports the run's end itself; a worker keeps it", () => {
  assert.equal(isNoise('Workflow failed', { runEndsReportedByCaller: true }), true);
  assert.equal(isNoise('Workflow failed', { runEndsReportedByCaller: false }), false);
  assert.equal(isNoise('Activity failed', { runEndsReportedByCaller: true }), false);
  const ends = { error: ApplicationFailure.create({ type: 'REPO_NOT_FOUND', message: 'x', nonRetryable: true }) };
  const retried = {
    error: ApplicationFailure.create({ type: 'MODEL_UNAVAILABLE', message: 'x', nonRetryable: false }),
  };
  assert.equal(isNoise('Activity failed', { runEndsReportedByCaller: true }, ends), true, 'the outcome names it');
  assert.equal(isNoise('Activity failed', { runEndsReportedByCaller: true }, retried), false, 'a retry follows');
  assert.equal(isNoise('Activity failed', { runEndsReportedByCaller: false }, ends), false, 'a worker keeps it');
  const idle = 'No activities registered, not polling for activity tasks';
  assert.equal(isNoise(idle, { runEndsReportedByCaller: false }), true);
});
