/**
 * What an activity ends with while its worker stops is retried, whatever it was: a
 * stranger's SIGTERM to a worker during the preflight's test suite ended the run as
 * VALIDATION_ABORTED ("preflight … was cancelled", not retried), where kill -9 in the same
 * phase and SIGTERM during a model step resumed. Otherwise the edge is unchanged.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApplicationFailure } from '@temporalio/common';
import { AgentError } from '../../../src/contracts/errors.js';
import { FailureType } from '../../../src/contracts/failures.js';
import { edgeWith, WORKER_SHUTDOWN } from '../../../src/activities/edge/to-failure.js';

const cancelledPreflight = async (): Promise<never> => {
  throw new AgentError(FailureType.ValidationAborted, 'preflight of `cargo test` was cancelled sk-secret-1');
};
const redact = (text: string) => text.replaceAll('sk-secret-1', '[redacted]');

test('while the worker stops: a retryable WORKER_SHUTDOWN, the cause kept and redacted', async () => {
  const failure = await edgeWith(
    redact,
    () => true,
  )(cancelledPreflight)().then(
    () => assert.fail('it must throw'),
    (err: unknown) => err,
  );
  assert.ok(failure instanceof ApplicationFailure);
  assert.equal(failure.type, WORKER_SHUTDOWN);
  assert.equal(failure.nonRetryable, false);
  assert.match(String(failure.cause?.message), /preflight of `cargo test` was cancelled \[redacted\]/);
});

test('a live worker: the same error crosses as before (non-retryable VALIDATION_ABORTED)', async () => {
  const failure = await edgeWith(
    redact,
    () => false,
  )(cancelledPreflight)().then(
    () => assert.fail('it must throw'),
    (err: unknown) => err,
  );
  assert.ok(failure instanceof ApplicationFailure);
  assert.equal(failure.type, 'VALIDATION_ABORTED');
  assert.equal(failure.nonRetryable, true);
  assert.equal(await edgeWith(redact, () => true)(async () => 42)(), 42, 'a result is a result');
});

test('outside an activity (no context), the default check says no shutdown', async () => {
  const failure = await edgeWith(redact)(cancelledPreflight)().catch((err: unknown) => err);
  assert.equal((failure as ApplicationFailure).type, 'VALIDATION_ABORTED');
});
