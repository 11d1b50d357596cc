/** What `status`, `--follow` and the Web UI say a waiting run waits for, and the command that ends the wait. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { waitingLine } from '../../src/contracts/human-loop.js';

test('a budget wait names the extend command', () => {
  const line = waitingLine({ issue: 7, waiting: { kind: 'budget', reason: 'cost $1.0 reached $1', timeoutMs: 1 } });
  assert.equal(
    line,
    'waiting: budget exhausted (cost $1.0 reached $1); run issue-agent extend --issue 7 --usd 5 (or --tokens N)',
  );
});

test('a question wait names the question, its choices and the reply command; a timed-out one says parked', () => {
  const waiting = { kind: 'answer' as const, reason: 'Which API?', choices: ['v1', 'v2'], timeoutMs: 1 };
  assert.equal(
    waitingLine({ issue: 3, waiting }),
    'waiting for an answer: "Which API?" [choices: v1 | v2]; answer with issue-agent reply --issue 3 "your answer"',
  );
  assert.match(
    waitingLine({ issue: 3, waiting: { ...waiting, timedOut: true } }) ?? '',
    /^parked: no answer came in time to "Which API\?".*issue-agent retry --issue 3$/,
  );
  assert.equal(waitingLine({ issue: 3 }), undefined);
});
