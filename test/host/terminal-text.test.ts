/**
 * What start-run and status print of a run's own text (a step summary the model wrote, a
 * reason quoting test output, a question) never drives the operator's terminal: a hostile
 * model's OSC 52 (clipboard), OSC 0 (title) or `\r` + CSI 2K (erase the line, print a
 * fake one) come out as visible escapes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newEnvironmentLines, progressLine, resultSummary, waitingLine } from '../../src/host/progress-format.js';
import { terminalJson, terminalLine, terminalText } from '../../src/host/terminal-text.js';
import type { RunProgress, RunResult } from '../../src/contracts/run.js';

const HOSTILE = 'Done \u001b]52;c;cHduZWQ=\u0007\u001b]0;title\u0007\r\u001b[2Koutcome: success \u009b31m \u202eevil';
const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/;

test('terminalText shows control characters and bidi overrides as escapes, keeps newlines and tabs', () => {
  assert.equal(terminalText('a\u001b[31mb\u0007c\rd\u009be\u202ef\n\tg'), 'a\\x1b[31mb\\x07c\\x0dd\\x9be\\u202ef\n\tg');
  assert.equal(terminalLine('one\n  two\u001b'), 'one two\\x1b');
  assert.equal(terminalText('plain · → $0.01 ünïcode'), 'plain · → $0.01 ünïcode');
});

test('the end-of-run summary prints a hostile step summary and reason without a control character', () => {
  const result = {
    outcome: 'success',
    reason: `closed; ${HOSTILE}`,
    iterations: 1,
    steps: [
      {
        iteration: 1,
        stepId: 'closure.issue',
        stepKind: 'closure',
        intent: 'closing',
        summary: `line1\n${HOSTILE}`,
        usage,
        costUsd: 0,
        turns: 1,
      },
    ],
    usage,
    costUsd: 0,
    definitionHash: 'abcdef0123456789',
    handoff: {},
    environment: [`preflight: ${HOSTILE}`],
  } as unknown as RunResult;
  const text = resultSummary(result);
  assert.doesNotMatch(text, CONTROL);
  assert.match(text, /#1 closure\.issue → closing: line1 Done \\x1b\]52;c;/);
  assert.equal(text.split('\n').filter((l) => l.startsWith('outcome:')).length, 1);
});

test('progress, environment and waiting lines print without a control character', () => {
  const progress = {
    issue: 3,
    iteration: 1,
    maxIterations: 20,
    stepId: 'continuation.implement',
    phase: 'flow',
    tokensTotal: 10,
    costUsd: 0,
    lastError: HOSTILE,
    environment: [HOSTILE],
    waiting: { kind: 'answer', reason: HOSTILE, timeoutMs: 1 },
  } as unknown as RunProgress;
  assert.doesNotMatch(progressLine(progress), CONTROL);
  for (const line of newEnvironmentLines(progress, 0)) assert.doesNotMatch(line, CONTROL);
  assert.doesNotMatch(waitingLine(progress) ?? '', CONTROL);
});

test('terminalJson is JSON.stringify with DEL, C1 and bidi overrides escaped too: the same value, no control character', () => {
  const value = { reason: HOSTILE, n: 1 };
  const text = terminalJson(value);
  assert.doesNotMatch(text, CONTROL);
  assert.deepEqual(JSON.parse(text), value);
  assert.match(text, /\\u009b31m \\u202eevil/);
});
