/**
 * The step's tool loop ends at the model's `ask`: the question is returned with what the
 * step spent, no tool of that turn runs and no further model request is made. A malformed
 * ask is an error result and the loop goes on.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { runQueryStep } from '../../../src/activities/model/query-step.js';
import type { SessionScript } from '../../../src/dev/model-server/session-script.js';
import { GOOD_ANSWER, makeRepo, recordingCtx, stepInput, withServer } from './step-fixtures.js';

const P = 'STEP initial.issue';

test('ask ends the step with the question; the turn’s other calls do not run', async () => {
  const worktree = makeRepo();
  const script: SessionScript = {
    name: 'ask',
    rules: [
      {
        id: 'ask',
        when: { promptContains: P, turn: 0 },
        respond: {
          text: 'Unclear.',
          toolUse: [
            { name: 'bash', input: { command: 'touch ran.txt' } },
            { name: 'ask', input: { question: 'Add or subtract?', choices: ['add', 'subtract'] } },
          ],
        },
      },
      { id: 'never', when: { promptContains: P, turn: 1 }, respond: { json: GOOD_ANSWER } },
    ],
  };
  await withServer(script, async (server, deps) => {
    const out = await runQueryStep(deps, stepInput({ worktreePath: worktree }), recordingCtx());
    assert.deepEqual(out.question, { question: 'Add or subtract?', choices: ['add', 'subtract'] });
    assert.deepEqual(out.output, {});
    assert.equal(out.turns, 1);
    assert.ok(out.costUsd > 0, 'the turn that asked is paid for');
    assert.deepEqual(out.toolsUsed, ['ask']);
    assert.equal(server.stats().requests, 1, 'no model request after the question');
    assert.equal(existsSync(path.join(worktree, 'ran.txt')), false);
    const transcript = JSON.parse(readFileSync(out.transcript.path, 'utf8')) as { outcome: string; tools: string[] };
    assert.equal(transcript.outcome, 'asked');
    assert.ok(transcript.tools.includes('ask'), 'the step was offered ask');
  });
});

test('a malformed ask is an error result the model reads; the step goes on', async () => {
  const script: SessionScript = {
    name: 'bad ask',
    rules: [
      { id: 'bad', when: { promptContains: P, turn: 0 }, respond: { toolUse: [{ name: 'ask', input: { q: 1 } }] } },
      {
        id: 'done',
        when: { promptContains: P, turn: 1, lastToolResultContains: 'non-empty "question"' },
        respond: { json: GOOD_ANSWER },
      },
    ],
  };
  await withServer(script, async (_server, deps) => {
    const out = await runQueryStep(deps, stepInput(), recordingCtx());
    assert.equal(out.question, undefined);
    assert.deepEqual(out.output, GOOD_ANSWER);
  });
});
