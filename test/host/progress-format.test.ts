/**
 * The end-of-run summary names the delivery's own step by the word the user chose it with:
 * `--deliver branch` prints `branch: done`, not the stored effect name `keep-branch`
 * (which the result keeps: local-boundary-hook.test.ts). Other effects keep their names. A
 * closing step the completion conditions refused says so after the model's summary.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDeliveryMode } from '../../src/contracts/delivery.js';
import type { BoundaryReport, RunProgress, RunResult, StepRecord } from '../../src/contracts/run.js';
import { effectLabel } from '../../src/contracts/delivery.js';
import { newWarningLines, progressLine, resultSummary, stillLine } from '../../src/host/progress-format.js';

const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };

function summaryOf(boundary: BoundaryReport | undefined, steps: readonly StepRecord[] = []): string[] {
  const result = {
    outcome: 'success',
    reason: 'closed',
    iterations: 1,
    steps,
    usage,
    costUsd: 0,
    definitionHash: 'abcdef0123456789',
    handoff: {},
    boundary,
  } as unknown as RunResult;
  return resultSummary(result).split('\n');
}

test('--deliver branch: the summary says branch, in the vocabulary of the flag', () => {
  const kept = 'kept agent/issue-5 at 0123456789ab (1 commit(s) ahead of main); main is unchanged';
  const lines = summaryOf({
    status: 'success',
    delivery: 'branch',
    effects: [
      { name: 'keep-branch', status: 'done', detail: kept },
      { name: 'close-issue', status: 'done', detail: 'closed #5' },
    ],
    pending: [],
  });
  assert.ok(lines.includes(`  - branch: done (${kept})`), lines.join('\n'));
  assert.ok(lines.includes('  - close-issue: done (closed #5)'), lines.join('\n'));
  assert.equal(lines.filter((l) => l.includes('keep-branch')).length, 0, lines.join('\n'));
  assert.ok(isDeliveryMode(effectLabel('keep-branch')), 'the label is a value --deliver accepts');
});

test('the other effects are printed under their own names', () => {
  for (const name of ['merge', 'squash', 'push', 'open-pr', 'remove-worktree', 'comment', 'label'])
    assert.equal(effectLabel(name), name);
  const lines = summaryOf({
    status: 'success',
    delivery: 'merge',
    effects: [{ name: 'merge', status: 'done', detail: 'merged' }],
    pending: [],
  });
  assert.ok(lines.includes('  - merge: done (merged)'), lines.join('\n'));
});

test("a closing the checks refused says so in the step list, after the model's own summary", () => {
  const closing = { stepId: 'closure.issue', stepKind: 'closure', intent: 'closing', next: null, summary: 'fixed it' };
  const spent = { usage, costUsd: 0, turns: 1 };
  const lines = summaryOf(undefined, [
    { iteration: 4, ...closing, ...spent, checks: 'failed: git-clean, tests' },
    { iteration: 5, ...closing, ...spent, checks: 'passed' },
    { iteration: 6, stepId: 'continuation.implement', stepKind: 'continuation', summary: 'edited', ...spent },
  ] as StepRecord[]);
  assert.ok(
    lines.includes('  #4 closure.issue → closing: fixed it · checks failed: git-clean, tests'),
    lines.join('\n'),
  );
  assert.ok(lines.includes('  #5 closure.issue → closing: fixed it · checks passed'), lines.join('\n'));
  assert.ok(lines.includes('  #6 continuation.implement → -: edited'), lines.join('\n'));
});

test('a quiet stretch says what the run is still doing; a waiting or ended run says nothing more', () => {
  const progress = (phase: string, extra: Partial<RunProgress> = {}) =>
    ({ phase, stepId: 'continuation.implement', ...extra }) as unknown as RunProgress;
  assert.equal(
    stillLine(progress('environment'), 95_000),
    "still preparing the environment: setup installs what the project's commands need (slow on a cold cache), then the checks run once on the base (1 min 35 s so far)",
  );
  assert.equal(stillLine(progress('flow'), 30_400), 'still on step continuation.implement (30 s so far)');
  assert.equal(
    stillLine(progress('flow', { stepId: 'x\u001b[2Jy' }), 30_000),
    'still on step x\\x1b[2Jy (30 s so far)',
  );
  assert.equal(stillLine(progress('waiting-for-answer'), 60_000), undefined);
  assert.equal(stillLine(progress('flow', { waiting: { kind: 'plan' } as RunProgress['waiting'] }), 60_000), undefined);
  assert.equal(stillLine(progress('completed'), 60_000), undefined);
});

test('a run still loading its definition says starting, not iteration 0/0', () => {
  const base = { stepId: '', phase: 'loading', tokensTotal: 0, costUsd: 0, iteration: 0, maxIterations: 0 };
  assert.equal(progressLine(base as unknown as RunProgress), 'starting · - · loading · 0 tokens · $0.0000');
  const running = { ...base, stepId: 'initial.issue', phase: 'flow', iteration: 1, maxIterations: 20 };
  assert.match(progressLine(running as unknown as RunProgress), /^iteration 1\/20 · initial\.issue · flow/);
});

test("the run's warnings are printed: in the summary, and once each while following", () => {
  const undone = "validators of closure.issue: HEAD was on agent/side, not on the run's branch agent/issue-4";
  const result = {
    outcome: 'failed',
    reason: 'r',
    iterations: 1,
    steps: [],
    usage,
    costUsd: 0,
    definitionHash: 'abc',
    handoff: {},
    warnings: [undone],
  } as unknown as RunResult;
  assert.ok(resultSummary(result).split('\n').includes(`warning: ${undone}`));
  const printed = new Set<string>();
  const progress = (warnings: string[]) => ({ warnings }) as unknown as Parameters<typeof newWarningLines>[0];
  assert.deepEqual(newWarningLines(progress([undone]), printed), [`warning: ${undone}`]);
  assert.deepEqual(newWarningLines(progress([undone]), printed), [], 'not twice');
  assert.deepEqual(newWarningLines(progress([undone, 'second']), printed), ['warning: second']);
});

test('a run stopped before it loaded its definition prints no empty definition line', () => {
  const base = { outcome: 'cancelled', reason: 'cancelled', iterations: 0, steps: [], usage, costUsd: 0 };
  const without = resultSummary({ ...base, definitionHash: '' } as unknown as RunResult).split('\n');
  assert.equal(
    without.some((line) => line.startsWith('definition:')),
    false,
  );
  const loaded = resultSummary({ ...base, definitionHash: 'abcdef0123456789' } as unknown as RunResult);
  assert.match(loaded, /^definition: abcdef012345$/m);
});
