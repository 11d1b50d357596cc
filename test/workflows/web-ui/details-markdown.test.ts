import test from 'node:test';
import assert from 'node:assert/strict';
import { code, plainText, row, usd } from '../../../src/workflows/web-ui/details-markdown.js';
import { renderDetails } from '../../../src/workflows/run/progress-publishing.js';
import type { RunProgress } from '../../../src/contracts/run.js';

test('amounts carry no dollar sign, so the UI never reads two of them as a math span', () => {
  assert.equal(usd(0.009318), 'USD 0.0093');
  assert.doesNotMatch(usd(12), /\$/);
});

test('free text is one line, capped, with markdown and math characters escaped', () => {
  assert.equal(plainText('cost $5 | *bold*\n_x_'), 'cost \\$5 \\| \\*bold\\* \\_x\\_');
  assert.equal(plainText('a'.repeat(100), 10), `${'a'.repeat(9)}…`);
  assert.equal(code('a`b'), "`a'b`");
  assert.equal(row(['1.', '', 'x']), '- 1. · x');
});

test('run details: no table, no bare dollar sign, one list item per step', () => {
  const usage = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 };
  const progress = {
    issue: 7,
    agent: 'iterator',
    phase: 'running',
    stepId: 'initial.issue',
    iteration: 2,
    maxIterations: 10,
    tokensTotal: 30,
    costUsd: 0.009318,
    definitionHash: 'abcdef0123456789',
    steps: [
      {
        iteration: 1,
        stepId: 'initial.issue',
        intent: 'next',
        next: 'continuation.issue',
        summary: 'set $PATH | ok',
        usage,
      },
      { iteration: 2, stepId: 'continuation.issue', summary: 'costs $3 and $4', usage },
    ],
  } as unknown as RunProgress;
  const text = renderDetails(progress);
  assert.doesNotMatch(text.replace(/\\\$/g, ''), /\$/);
  assert.doesNotMatch(text, /^\|/m);
  assert.match(text, /\*\*Cost:\*\* USD 0\.0093/);
  assert.equal(text.split('\n').filter((l) => l.startsWith('- ')).length, 2);
  assert.match(text, /- 1\. · `initial\.issue` · next → `continuation\.issue` · 15 tokens · set \\\$PATH \\\| ok/);
});
