import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IssueSnapshot } from '../../../src/contracts/activities.js';
import { pipelineQueue, priorityRank } from '../../../src/cli/pipeline/pipeline-queue.js';
import { checkPriorities, prioritiesOf, priorityMove } from '../../../src/cli/pipeline/priorities.js';
import { pipelineTable, progressLine } from '../../../src/cli/pipeline/pipeline-output.js';
import { assertTerminalSafe, HOSTILE } from '../../helpers/hostile-text.js';
import { pipelineDefinition } from '../../workflows/pipeline/pipeline-definitions.js';

const issue = (number: number, labels: string[], state: 'open' | 'closed' = 'open'): IssueSnapshot => ({
  number,
  title: `t${number}`,
  body: '',
  labels,
  state,
});

test('the batch queue: actionable issues only, by prioritizer label order, unknown last, then by number', () => {
  const def = pipelineDefinition();
  const queue = pipelineQueue(
    [
      issue(1, ['kind:consider']),
      issue(2, ['kind:detail', 'P3']),
      issue(3, ['kind:impl', 'P1']),
      issue(4, ['kind:consider', 'done']), // terminal
      issue(5, ['kind:consider', 'P1'], 'closed'),
      issue(6, ['bug']), // no phase
      issue(7, ['kind:review', 'P1', 'P3']),
    ],
    def,
  );
  assert.deepEqual(
    queue.map((q) => [q.number, q.phase, q.priority]),
    [
      [3, 'implement', 'P1'],
      [7, 'review', 'P1'],
      [2, 'detail', 'P3'],
      [1, 'consider', undefined],
    ],
  );
  assert.equal(priorityRank(['docs:P2'], pipelineDefinition({ labelPrefix: 'docs' })), 1);
  assert.equal(priorityRank(['P2'], pipelineDefinition({ labelPrefix: 'docs' })), Number.POSITIVE_INFINITY);
});

test('priorities: read from the handoff (JSON text too), checked against the labels, default applied', () => {
  const p = pipelineDefinition().prioritizer!;
  assert.deepEqual(prioritiesOf({ handoff: { 'closure.x': { priorities: '[{"issue":1,"priority":"P1"}]' } } }), [
    { issue: 1, priority: 'P1' },
  ]);
  assert.equal(prioritiesOf({ handoff: { 'closure.x': { summary: 's' } } }), undefined);
  const rows = checkPriorities(
    [{ issue: 2, priority: 'P1' }, { issue: 1, priority: 'urgent' }, { issue: 99, priority: 'P1' }, 'junk'],
    p,
    [1, 2],
  );
  assert.deepEqual(
    rows.map((r) => [r.issue, r.priority]),
    [
      [1, 'P2'],
      [2, 'P1'],
    ],
  );
  assert.match(rows[0]!.note ?? '', /default P2/);
  const strict = checkPriorities(
    [{ issue: 1, priority: 'urgent' }],
    { agent: 'a', agentDir: '/x/a', labels: ['P1'] },
    [1],
  );
  assert.equal(strict[0]!.priority, undefined);
  assert.match(strict[0]!.note ?? '', /no defaultLabel/);
});

test('priorityMove swaps the prioritizer labels only, prefixed', () => {
  assert.deepEqual(priorityMove(['bug', 'P3', 'kind:impl'], 'P1', pipelineDefinition()), {
    add: ['P1'],
    remove: ['P3'],
  });
  assert.deepEqual(priorityMove(['docs:P1', 'P3'], 'P1', pipelineDefinition({ labelPrefix: 'docs' })), {
    add: ['docs:P1'],
    remove: [],
  });
});

test('the result table: one row per issue with its path, and the count completed', () => {
  const text = pipelineTable([
    {
      issue: 4,
      workflowId: 'w',
      finalPhase: 'done',
      cycleCount: 2,
      history: [
        { cycle: 1, from: 'consider', to: 'detail', agent: 'c', outcome: 'handoff-detail', runId: 'r1' },
        { cycle: 2, from: 'detail', to: 'done', agent: 'd', outcome: 'success', runId: 'r2' },
      ],
      status: 'completed',
      issueClosed: true,
      reason: 'reached done',
    },
    {
      issue: 5,
      workflowId: 'w5',
      cycleCount: 0,
      history: [],
      status: 'blocked',
      issueClosed: false,
      reason: 'no label',
    },
  ]);
  assert.match(
    text,
    /#4 +completed +done +2 +yes +consider → detail\(c:handoff-detail\) → done\(d:success\) +reached done/,
  );
  assert.match(text, /#5 +blocked +- +0 +no/);
  assert.match(text, /1 of 2 pipeline\(s\) completed/);
});

test('what start-pipeline prints of a run, a repository or a model (reason, outcome, phase, agent) drives no terminal', () => {
  const hostile = HOSTILE.replace(/\r/g, '');
  const table = pipelineTable([
    {
      issue: 6,
      workflowId: 'w6',
      finalPhase: `done${HOSTILE}`,
      cycleCount: 1,
      history: [{ cycle: 1, from: 'consider', to: 'done', agent: `c${HOSTILE}`, outcome: hostile, runId: 'r1' }],
      status: 'failed',
      issueClosed: false,
      reason: `run failed: ${HOSTILE}`,
    },
  ]);
  assertTerminalSafe(table, 'the result table');
  assert.match(table, /#6 +failed +doneDone \\x1b\]52;c;/);
  assert.match(table, /run failed: Done \\x1b\]52;c;/);
  const line = progressLine({
    workflowId: 'w6',
    issue: 6,
    pipeline: 'default',
    status: 'running',
    paused: false,
    phase: `consider${HOSTILE}`,
    cycle: 1,
    maxCycles: 5,
    agent: `considerer${HOSTILE}`,
    childWorkflowId: 'r/considerer/issue-6',
    lastOutcome: hostile,
    history: [],
    issueClosed: false,
  });
  assertTerminalSafe(line, 'the progress line');
  assert.match(line, /#6 cycle 1\/5 · phase considerDone \\x1b\]52;c;/);
});
