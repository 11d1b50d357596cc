/**
 * The model asks, a person answers (issue 40), against the real dev server with a scripted
 * model: the first step's model calls `ask`; the run posts the question on the local issue
 * (with the waiting label), status shows `waiting for an answer`, no model request is made
 * while it waits; `issue-agent reply` answers, the answer joins the issue's comments, and
 * the step's next request quotes it (the rule that answers requires the quote). With a short
 * answer timeout the run parks as `unanswered` instead of failing, and a later reply resumes it.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { WorkflowHandle } from '@temporalio/client';
import type { RunProgress } from '../../../src/contracts/run.js';
import { localIssuePath } from '../../../src/activities/issues/local-issue-store.js';
import { replyCommand } from '../../../src/cli/commands/extend-reply.js';
import { statusCommand } from '../../../src/cli/commands/run-control.js';
import { cancelSignal, progressQuery } from '../../../src/workflows/run/messages.js';
import type { runAgentWorkflow } from '../../../src/workflows/run-agent.js';
import { untilParked } from '../../helpers/parked.js';
import { runScenario } from '../../helpers/run-scenario.js';
import { ANSWER, askingSession as askingSession_ } from '../../workflows/asking-session.js';
import { serverAddress, teardownEnv, testEnv } from '../../helpers/temporal-env.js';
import { captured, findableId } from '../../helpers/in-process-cli.js';
import { until } from '../../helpers/until.js';

before(async () => {
  process.env.TEMPORAL_ADDRESS = serverAddress(await testEnv());
  delete process.env.TEMPORAL_NAMESPACE;
});
after(teardownEnv);

const askingSession = askingSession_();

/** The run's progress once `ok` holds for it; fails if the run ends first. */
function progressWhen(
  handle: WorkflowHandle<typeof runAgentWorkflow>,
  what: string,
  ok: (p: RunProgress) => boolean,
): Promise<RunProgress> {
  return until(
    what,
    async () => {
      const p = await handle.query(progressQuery).catch(() => undefined);
      if (p !== undefined && ok(p)) return p;
      if (p?.phase === 'completed' || p?.phase === 'failed') assert.fail(`the run ended (${p.phase}) before it waited`);
      return undefined;
    },
    90_000,
    100,
  );
}

/**
 * The issue's text once it carries the waiting label, or its last text after about 5 s
 * (the caller's assertion then says what is missing; a throw here would leave the run waiting).
 */
function issueOnceLabelled(path: string): Promise<string> {
  let text = '';
  return until(
    'the waiting label on the issue',
    async () => {
      text = await readFile(path, 'utf8');
      return text.includes('agent:waiting') ? text : undefined;
    },
    5_000,
    100,
  ).catch(() => text);
}

test('ask: the run waits for an answer, `reply` answers, the next prompt quotes it', { timeout: 240_000 }, async () => {
  let status = '';
  let issueWhileWaiting = '';
  let requestsWhileWaiting: number[] = [];
  const { result, repoPath, model } = await runScenario({
    session: askingSession,
    workflowId: findableId,
    during: async (handle, server, run) => {
      const flags = ['--issue', String(run.issue), '--repo', run.repoPath];
      const p = await progressWhen(handle, 'the run to wait for an answer', (q) => q.waiting?.kind === 'answer');
      assert.equal(p.phase, 'waiting-for-answer');
      assert.deepEqual(p.waiting?.choices, ['add', 'subtract']);
      issueWhileWaiting = await issueOnceLabelled(localIssuePath(run.repoPath, run.issue));
      requestsWhileWaiting = [server.stats().requests];
      await untilParked(handle, 'the wait for an answer');
      requestsWhileWaiting.push(server.stats().requests);
      status = (await captured(() => statusCommand(flags))).out;
      const replied = await captured(() => replyCommand([...flags, ANSWER]));
      assert.equal(replied.code, 0);
      assert.match(replied.out, /answer sent to .* as /);
    },
  });
  assert.match(status, /waiting for an answer: "Should sum\(\) add or subtract\?" \[choices: add \| subtract\]/);
  assert.match(status, /issue-agent reply --issue 1/);
  assert.match(issueWhileWaiting, /A question before the agent goes on/);
  assert.match(issueWhileWaiting, /1\. add\n2\. subtract/);
  assert.match(issueWhileWaiting, /- agent:waiting/);
  assert.equal(requestsWhileWaiting[0], requestsWhileWaiting[1], 'no model request while the run waits');
  const stats = model.stats();
  assert.equal(stats.byRule['ask'], 1, JSON.stringify(stats.byRule));
  assert.equal(stats.byRule['understand-with-answer'], 1, 'the rerun of the step quoted the answer and the question');
  const issue = await readFile(localIssuePath(repoPath, 1), 'utf8');
  assert.match(issue, new RegExp(`@\\S+: ${ANSWER.replace(/[()+.]/g, '\\$&')}`), 'the answer joins the issue comments');
  assert.doesNotMatch(issue, /agent:waiting/, 'the waiting label comes off');
  assert.equal(result.outcome, 'success', result.reason);
  assert.ok(
    result.steps.some((s) => s.stepId === 'initial.understand' && s.summary.startsWith('asked: Should sum()')),
    'the asking step is recorded with what it spent',
  );
});

test('an unanswered question parks the run; a later reply resumes it', { timeout: 240_000 }, async () => {
  let parked: RunProgress | undefined;
  let status = '';
  const { result } = await runScenario({
    session: askingSession,
    workflowId: findableId,
    input: { answerTimeoutMs: 1000 },
    during: async (handle, _server, run) => {
      const flags = ['--issue', String(run.issue), '--repo', run.repoPath];
      parked = await progressWhen(handle, 'the question to time out', (q) => q.waiting?.timedOut === true);
      await untilParked(handle, 'the unanswered question');
      const still = await handle.query(progressQuery);
      assert.equal(still.phase, 'unanswered', 'parked, not failed');
      status = (await captured(() => statusCommand(flags))).out;
      assert.equal((await captured(() => replyCommand([...flags, '--text', ANSWER]))).code, 0);
    },
  });
  assert.equal(parked?.phase, 'unanswered');
  assert.match(status, /parked: no answer came in time to "Should sum\(\) add or subtract\?"/);
  assert.match(status, /issue-agent retry --issue 1/);
  assert.equal(result.outcome, 'success', result.reason);
});

test(
  'cancelled while it waits: the run ends cancelled and the waiting label comes off',
  { timeout: 240_000 },
  async () => {
    let labelled = false;
    const { result, repoPath } = await runScenario({
      session: askingSession,
      during: async (handle, _server, run) => {
        await progressWhen(handle, 'the run to wait for an answer', (q) => q.waiting?.kind === 'answer');
        labelled = (await issueOnceLabelled(localIssuePath(run.repoPath, run.issue))).includes('agent:waiting');
        await handle.signal(cancelSignal, { reason: 'not needed any more' });
      },
    });
    assert.ok(labelled, 'the issue was labelled while the run waited');
    assert.equal(result.outcome, 'cancelled', result.reason);
    assert.doesNotMatch(await readFile(localIssuePath(repoPath, 1), 'utf8'), /agent:waiting/);
  },
);
