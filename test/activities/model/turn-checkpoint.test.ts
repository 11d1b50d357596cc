/**
 * A completed model turn is checkpointed to disk before anything can fail the
 * attempt, so a retried attempt never sends (and pays for) it again, even when the
 * worker died before its heartbeat reached the server (throttled, or not yet sent).
 * Counted at the offline model server across a simulated retry.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { QueryStepContext } from '../../../src/activities/model/query-step.js';
import { runQueryStep } from '../../../src/activities/model/query-step.js';
import type { SessionScript } from '../../../src/dev/model-server/session-script.js';
import { GOOD_ANSWER, makeRepo, stepInput, withServer } from './step-fixtures.js';

const APPEND = { name: 'bash', input: { command: 'echo ran >> log.txt' } };
const SCRIPT: SessionScript = {
  name: 'three turns',
  rules: [
    { id: 't0', when: { turn: 0 }, respond: { toolUse: [APPEND] } },
    { id: 't1', when: { turn: 1 }, respond: { toolUse: [APPEND] } },
    { id: 't2', when: { turn: 2 }, respond: { json: GOOD_ANSWER } },
  ],
};

interface Attempt extends QueryStepContext {
  readonly beats: unknown[];
}

/** An attempt whose worker dies at its `dieAtBeat`-th checkpoint heartbeat (1-based). */
function attempt(scope: string, options: { dieAtBeat?: number; resumeFrom?: unknown } = {}): Attempt {
  const beats: unknown[] = [];
  return {
    beats,
    scope,
    signal: new AbortController().signal,
    ...(options.resumeFrom === undefined ? {} : { resumeFrom: options.resumeFrom }),
    heartbeat(details: unknown) {
      if ((details as { v?: number }).v !== 1) return;
      beats.push(details);
      if (beats.length === options.dieAtBeat) throw new Error(`worker died at checkpoint ${beats.length}`);
    },
  };
}

const turnsAsked = (log: ReadonlyArray<{ turn: number }>): number[] => log.map((e) => e.turn);

test('the worker dies after an answer arrived and before any heartbeat got through: the answer is not asked for again', async () => {
  await withServer(SCRIPT, async (server, deps) => {
    const input = stepInput({ worktreePath: makeRepo() });
    // Checkpoint 1 is turn 0's answer; the worker dies before its tools run.
    await assert.rejects(runQueryStep(deps, input, attempt('run-a/1', { dieAtBeat: 1 })), /worker died/);
    assert.equal(server.stats().requests, 1);
    // The server never saw a heartbeat: the retry has no details, only the same execution.
    const out = await runQueryStep(deps, input, attempt('run-a/1'));
    assert.deepEqual(out.output, GOOD_ANSWER);
    assert.deepEqual(turnsAsked(server.stats().log), [0, 1, 2], 'each turn was sent exactly once');
    assert.equal(out.turns, 3);
    assert.equal(readFileSync(path.join(input.worktreePath, 'log.txt'), 'utf8'), 'ran\nran\n');
  });
});

test('a stale heartbeat (throttled) loses to the newer checkpoint on disk', async () => {
  await withServer(SCRIPT, async (server, deps) => {
    const input = stepInput({ worktreePath: makeRepo() });
    const first = attempt('run-b/1', { dieAtBeat: 3 }); // 1: t0 answer, 2: t0 tools, 3: t1 answer
    await assert.rejects(runQueryStep(deps, input, first), /worker died/);
    assert.equal(server.stats().requests, 2);
    // Only the first checkpoint reached the server before the worker died.
    const out = await runQueryStep(deps, input, attempt('run-b/1', { resumeFrom: first.beats[0] }));
    assert.deepEqual(out.output, GOOD_ANSWER);
    assert.deepEqual(turnsAsked(server.stats().log), [0, 1, 2]);
    assert.equal(readFileSync(path.join(input.worktreePath, 'log.txt'), 'utf8'), 'ran\nran\n', 'no tool ran twice');
  });
});

test('the final answer checkpointed before the worker died is returned without another request', async () => {
  await withServer(SCRIPT, async (server, deps) => {
    const input = stepInput({ worktreePath: makeRepo() });
    await assert.rejects(runQueryStep(deps, input, attempt('run-c/1', { dieAtBeat: 5 })), /worker died/);
    assert.equal(server.stats().requests, 3);
    const out = await runQueryStep(deps, input, attempt('run-c/1'));
    assert.deepEqual(out.output, GOOD_ANSWER);
    assert.equal(server.stats().requests, 3, 'the paid-for final answer was used');
    assert.ok(out.usage.inputTokens > 0, 'usage of the dead attempt is carried over');
  });
});

test('another execution of the same step (e.g. after a workflow reset) starts over', async () => {
  await withServer(SCRIPT, async (server, deps) => {
    const input = stepInput({ worktreePath: makeRepo() });
    await assert.rejects(runQueryStep(deps, input, attempt('run-d/1', { dieAtBeat: 2 })), /worker died/);
    const out = await runQueryStep(deps, input, attempt('run-e/1'));
    assert.deepEqual(out.output, GOOD_ANSWER);
    assert.deepEqual(turnsAsked(server.stats().log), [0, 0, 1, 2]);
  });
});
