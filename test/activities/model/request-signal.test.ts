/**
 * Each model request gets its own signal that follows the step's, and lets go of the
 * step's when it ends: the SDK and fetch never remove the listeners they hang on the
 * signal they are given, so on the step's they piled up turn after turn.
 */
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { test } from 'node:test';
import { requestSignal } from '../../../src/activities/model/anthropic-llm-client.js';

test('forty requests leave no listener on the step signal', () => {
  const step = new AbortController();
  for (let turn = 0; turn < 40; turn++) {
    const linked = requestSignal(step.signal);
    // What the SDK and fetch do: a listener on the request's signal, never removed.
    linked.signal.addEventListener('abort', () => undefined);
    linked.done();
  }
  assert.equal(getEventListeners(step.signal, 'abort').length, 0);
});

test("aborting the step aborts the request in flight, with the step's reason", () => {
  const step = new AbortController();
  const linked = requestSignal(step.signal);
  step.abort(new Error('step cancelled'));
  assert.equal(linked.signal.aborted, true);
  assert.equal((linked.signal.reason as Error).message, 'step cancelled');
  linked.done();
});

test('a step already aborted gives an aborted request signal', () => {
  const step = new AbortController();
  step.abort('gone');
  assert.equal(requestSignal(step.signal).signal.aborted, true);
});
