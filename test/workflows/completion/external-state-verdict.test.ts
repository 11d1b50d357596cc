/**
 * externalState (upstream `poll:state`): the verdict comes before any delivery effect
 * (seed 000: the boundary hook runs only after the Completion loop's verdict). The
 * target state is the issue closed by someone else; the run's own delivery (merge,
 * comment, labels, close) happens only once that state is read as reached, and a
 * closing that finds it unreached goes back to the flow with nothing delivered. Real
 * runs on the dev server, offline model, local issues, `merge` delivery.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createLocalIssueStore } from '../../../src/activities/issues/local-issue-store.js';
import type { RunResult } from '../../../src/contracts/run.js';
import { runScenario } from '../../helpers/run-scenario.js';
import { teardownEnv } from '../../helpers/temporal-env.js';
import {
  activityNames,
  closedAfterFirstClosing,
  closedWhilePolling,
  events,
  externalStateAgent,
  RULES,
} from './external-state-agent.js';

after(teardownEnv);

const head = (repoPath: string): string =>
  execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repoPath, encoding: 'utf8' }).trim();

const trail = (result: RunResult): string[] => result.steps.map((s) => `${s.iteration}:${s.stepId}:${s.intent ?? ''}`);

/** Index of the last activity named `name`, or -1. */
const lastOf = (names: readonly string[], name: string): number => names.lastIndexOf(name);

test('a closing that finds the issue open delivers nothing and goes back to the flow; delivered once someone closes it', async () => {
  let seen: { head: string; labels: readonly string[]; state: string } | undefined;
  let base = '';
  let issue = 0;
  const scenario = await closedAfterFirstClosing(async (repoPath, issue) => {
    const issueNow = await createLocalIssueStore(repoPath).read(issue);
    seen = { head: head(repoPath), labels: issueNow.labels, state: issueNow.state };
  });
  const { result, handle, repoPath } = await runScenario({
    ...scenario,
    during: async (h, model, run) => {
      base = head(run.repoPath);
      issue = run.issue;
      await scenario.during?.(h, model, run);
    },
  });

  assert.equal(result.outcome, 'success', result.reason);
  assert.deepEqual(trail(result), [
    '1:initial.plan:next',
    '2:continuation.build:handoff',
    '3:closure.done:closing',
    '4:continuation.build:handoff',
    '5:closure.done:closing',
  ]);
  // After the first closing (state open, one poll, back to the flow): nothing delivered.
  assert.ok(seen, 'the world was looked at before the issue was closed');
  assert.equal(seen.state, 'open');
  assert.equal(seen.head, base, 'the base was not merged into before the state was reached');
  assert.ok(
    !seen.labels.includes('done'),
    `no completion label before the state was reached: ${seen.labels.join(',')}`,
  );
  // The boundary hook ran exactly once, after the state read that found the issue closed.
  const names = activityNames(await events(handle));
  assert.equal(names.filter((n) => n === 'runBoundaryHook').length, 1, names.join(' '));
  assert.ok(lastOf(names, 'checkExternalState') < lastOf(names, 'runBoundaryHook'), names.join(' '));
  // Then delivered: merged into the base, labelled.
  assert.notEqual(head(repoPath), base, 'merged into the base once the state was reached');
  assert.ok((await createLocalIssueStore(repoPath).read(issue)).labels.includes('done'));
});

test('an issue closed while the run polls: the boundary runs after the read that saw it closed', async () => {
  const { result, handle } = await runScenario(await closedWhilePolling());
  assert.equal(result.outcome, 'success', result.reason);
  assert.match(result.reason, /closed/);
  const history = await events(handle);
  assert.ok(
    history.some((e) => e.timerStartedEventAttributes),
    'polled with a durable timer',
  );
  const names = activityNames(history);
  const boundary = names.indexOf('runBoundaryHook');
  assert.ok(boundary > lastOf(names, 'checkExternalState'), `boundary after the last state read: ${names.join(' ')}`);
  const timerAt = history.findIndex((e) => e.timerStartedEventAttributes);
  const boundaryAt = history.findIndex(
    (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runBoundaryHook',
  );
  assert.ok(timerAt < boundaryAt, 'no delivery while waiting for the state');
});

test('closure action close never satisfies its own verdict: an issue nobody closes is never delivered nor closed', async () => {
  const agentDir = await externalStateAgent({ maxIterations: 5, pollIntervalMs: 100, maxPolls: 1 }, 'close');
  let base = '';
  let number = 0;
  const { result, handle, repoPath } = await runScenario({
    session: { name: 'external-state-never', rules: RULES },
    agentDir,
    during: async (_h, _model, run) => {
      base = head(run.repoPath);
      number = run.issue;
    },
  });
  assert.equal(result.outcome, 'failed', result.reason);
  assert.equal(result.code, 'MAX_ITERATIONS', result.reason);
  assert.equal(result.boundary, undefined);
  assert.ok(!activityNames(await events(handle)).includes('runBoundaryHook'), 'the boundary hook never ran');
  const issue = await createLocalIssueStore(repoPath).read(number);
  assert.equal(issue.state, 'open');
  assert.equal(issue.labels.includes('done'), false);
  assert.equal(head(repoPath), base, 'the base never moved');
});
