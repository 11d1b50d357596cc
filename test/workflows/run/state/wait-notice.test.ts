/** The pure parts of a waiting run's notice: what it spent per step, the commands it names, the question's text. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { controlCommand, questionText, spendByStep } from '../../../../src/workflows/run/state/wait-notice.js';
import type { StepRecord } from '../../../../src/contracts/run.js';
import { ZERO_USAGE } from '../../../../src/contracts/usage.js';

const step = (stepId: string, costUsd: number): StepRecord => ({
  iteration: 1,
  stepId,
  stepKind: 'work',
  summary: '',
  usage: ZERO_USAGE,
  costUsd,
  turns: 1,
});

test('spend by step: summed per step, most expensive first', () => {
  assert.equal(
    spendByStep([step('a', 0.01), step('b', 0.05), step('a', 0.02)]),
    '- `b`: $0.0500 (1 visit)\n- `a`: $0.0300 (2 visits)',
  );
  assert.equal(spendByStep([]), '- (no step finished yet)');
});

test('the commands a notice names', () => {
  assert.equal(controlCommand({ issue: 9 }, 'extend'), 'issue-agent extend --issue 9 --usd 5');
  assert.equal(controlCommand({ issue: 9 }, 'reply'), 'issue-agent reply --issue 9 "your answer"');
});

test('a question with choices lists them', () => {
  assert.equal(questionText({ question: 'Which?' }), 'Which?');
  assert.equal(questionText({ question: 'Which?', choices: ['x', 'y'] }), 'Which?\n\n1. x\n2. y');
});
