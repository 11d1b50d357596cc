/** The pipeline's named transitions, pure: dispatch, outcome, history, end. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialPipelineState } from '../../../src/workflows/pipeline/state/pipeline-state.js';
import {
  agentDispatched,
  cancelRequested,
  childEnded,
  outcomeRecorded,
  pauseRequested,
  phaseEntered,
  pipelineEnded,
  resumeRequested,
  transitionRecorded,
} from '../../../src/workflows/pipeline/state/pipeline-transitions.js';

const transition = { cycle: 1, from: 'ready', to: 'review', agent: 'dev', outcome: 'success', runId: 'c1' };

test('a cycle: dispatched, ended, outcome and transition recorded', () => {
  const start = phaseEntered(initialPipelineState(), 'ready');
  const dispatched = agentDispatched(start, 1, 'dev', 'c1');
  assert.deepEqual([dispatched.cycle, dispatched.agent, dispatched.childWorkflowId], [1, 'dev', 'c1']);
  const ended = childEnded(dispatched);
  assert.equal('childWorkflowId' in ended, false);
  const recorded = transitionRecorded(outcomeRecorded(ended, 'success'), transition, false);
  assert.equal(recorded.lastOutcome, 'success');
  assert.deepEqual(recorded.history, [transition]);
  assert.deepEqual(start.history, [], 'the state before is a value: untouched');
  assert.equal(transitionRecorded(recorded, { ...transition, cycle: 2 }, true).issueClosed, true);
  assert.equal(transitionRecorded(recorded, transition, false).issueClosed, false);
});

test('pause, resume, cancel and the end', () => {
  const paused = pauseRequested(initialPipelineState());
  assert.equal(paused.paused, true);
  assert.equal(resumeRequested(paused).paused, false);
  assert.equal(cancelRequested(paused, 'stop').cancelled, 'stop');
  const ended = pipelineEnded(agentDispatched(paused, 1, 'dev', 'c1'), 'cancelled', 'stop');
  assert.deepEqual([ended.status, ended.reason, ended.childWorkflowId], ['cancelled', 'stop', undefined]);
});
