/**
 * The pure parts of asking and waiting (issue 40): the answer timeout, and the state
 * transitions of a step that asked (it keeps what it reruns with and records its spend)
 * and of an answer (taken once, by the asking step's next prompt).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { answerTimeoutMs } from '../../../../src/workflows/run/state/answer-wait.js';
import { initialRunState } from '../../../../src/workflows/run/state/run-state.js';
import {
  answerQuestion,
  stopOnQuestion,
  takeStepInputs,
  uncountIteration,
} from '../../../../src/workflows/run/state/run-transitions.js';
import { DEFAULT_ANSWER_TIMEOUT_MS } from '../../../../src/contracts/human-loop.js';

test('the answer timeout is the run option when positive, else 3 days', () => {
  assert.equal(DEFAULT_ANSWER_TIMEOUT_MS, 3 * 86_400_000);
  assert.equal(answerTimeoutMs({}), DEFAULT_ANSWER_TIMEOUT_MS);
  assert.equal(answerTimeoutMs({ answerTimeoutMs: 1500 }), 1500);
  assert.equal(answerTimeoutMs({ answerTimeoutMs: -1 }), DEFAULT_ANSWER_TIMEOUT_MS);
  assert.equal(answerTimeoutMs({ answerTimeoutMs: Number.POSITIVE_INFINITY }), DEFAULT_ANSWER_TIMEOUT_MS);
});

test('a step that asked keeps its rerun inputs and records what it spent, under its own iteration', () => {
  const start = { ...initialRunState('s', {}), iteration: 3, costUsd: 0.5 };
  const usage = { inputTokens: 100, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 };
  const asked = stopOnQuestion(
    start,
    { operatorGuidance: 'be brief', pendingRetryAddendum: 'fix the test' },
    { stepId: 's', stepKind: 'work' },
    { usage, costUsd: 0.25, turns: 2, transcript: '/t.json' },
    { question: 'Which?' },
  );
  assert.equal(asked.operatorGuidance, 'be brief');
  assert.equal(asked.pendingRetryAddendum, 'fix the test');
  assert.equal(asked.costUsd, 0.75);
  assert.deepEqual(asked.usage, usage);
  assert.deepEqual(
    asked.steps.map((s) => [s.iteration, s.stepId, s.summary, s.turns]),
    [[3, 's', 'asked: Which?', 2]],
  );
  assert.equal(uncountIteration(asked, 3).iteration, 2, 'the rerun gets the same iteration number');
});

test('an answer is taken once, with its question and author', () => {
  const answered = answerQuestion(initialRunState('s', {}), { question: 'Which?', author: 'ann', text: 'v2' });
  const taken = takeStepInputs(answered);
  assert.deepEqual(taken.answer, { question: 'Which?', author: 'ann', text: 'v2' });
  assert.equal(taken.state.pendingAnswer, undefined);
  assert.equal(takeStepInputs(taken.state).answer, undefined);
});
