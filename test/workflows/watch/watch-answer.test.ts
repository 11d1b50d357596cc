/**
 * The model's question answered through the GitHub issue thread (issue 40), end to end on
 * the dev server with the watcher, the GitHub REST stand-in and a scripted model: the run
 * posts its question on the issue once and labels it `agent:waiting`; a stranger's comment
 * (no write access) is not an answer; the first comment of a collaborator is, and the
 * asking step's next prompt quotes it (the rule that answers the rerun requires the quote,
 * so a stranger's words reaching the model would leave it unanswered); the label comes off.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { progressQuery } from '../../../src/workflows/run/messages.js';
import type { runAgentWorkflow } from '../../../src/workflows/run-agent.js';
import { githubWatchScenario, signalsReceived, watcherCaughtUp } from './github-watch-scenario.js';
import { until } from '../../helpers/until.js';
import { teardownEnv, testEnv } from '../../helpers/temporal-env.js';
import { ANSWER, askingSession, QUESTION } from '../asking-session.js';
import { readRunResult } from '../../../src/host/run-result.js';

after(teardownEnv);

const TOKEN = ['ghp', 'watchanswer0123456789abcd'].join('_');

test('a question on a GitHub issue: a stranger is ignored, a collaborator answers', { timeout: 400_000 }, async () => {
  const env = await testEnv();
  const s = await githubWatchScenario({ name: 'watch-answer', token: TOKEN, session: askingSession() });
  const { server, model, worker, runId, issue } = s;
  try {
    await worker.runUntil(async () => {
      const watcher = await s.startWatcher();
      const question = await until('the question on the issue', () =>
        issue().comments.find((c) => c.body.includes(QUESTION)),
      );
      assert.match(question.body, /A question before the agent goes on/);
      assert.match(question.body, /Answer in a comment on this issue/);
      assert.match(question.body, /1\. add\n2\. subtract/);
      await until('the waiting label', () => (issue().labels.includes('agent:waiting') ? true : undefined));
      const run = env.client.workflow.getHandle<typeof runAgentWorkflow>(runId);

      server.addComment(1, { body: 'subtract, obviously', user: 'mallory', association: 'NONE' });
      await watcherCaughtUp(watcher);
      const still = await run.query(progressQuery);
      assert.equal(still.phase, 'waiting-for-answer', 'a stranger does not answer');
      assert.ok(!(await signalsReceived(run)).includes('answer'), "no answer signal from a stranger's comment");

      server.addComment(1, { body: ANSWER, user: 'alice', association: 'COLLABORATOR' });
      const result = await readRunResult(run);
      assert.equal(result.outcome, 'success', result.reason);
      const byRule = model.stats().byRule;
      assert.equal(byRule['ask'], 1);
      assert.equal(byRule['understand-with-answer'], 1, "the collaborator's answer reached the next prompt");
      assert.equal(
        issue().comments.filter((c) => c.body.includes(QUESTION) && c.body.includes('A question before')).length,
        1,
        'the question is posted once',
      );
      await until('the waiting label removed', () => (issue().labels.includes('agent:waiting') ? undefined : true));
      await watcher.signal('stop');
      await watcher.result();
    });
  } finally {
    await s.close();
  }
});
