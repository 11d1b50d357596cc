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
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa } from 'execa';
import { loadAgentDefinitionOrThrow } from '../../../src/definition/load/load-agent-definition.js';
import { createModelServer } from '../../../src/dev/model-server/model-server.js';
import { createSampleRepo } from '../../../src/dev/sample-repo.js';
import { PROJECT_ROOT } from '../../../src/host/project-root.js';
import type { WatchInput } from '../../../src/contracts/watch.js';
import { progressQuery } from '../../../src/workflows/run/messages.js';
import type { runAgentWorkflow } from '../../../src/workflows/run-agent.js';
import { runWatchWorkflow } from '../../../src/workflows/watch/run-watch.js';
import { githubRunWorker } from './github-run-worker.js';
import { startFakeGitHubServer } from '../../helpers/fake-github-server.js';
import { until } from '../../helpers/until.js';
import { teardownEnv, testEnv } from '../../helpers/temporal-env.js';
import { ANSWER, askingSession, QUESTION } from '../asking-session.js';

after(teardownEnv);

const TOKEN = ['ghp', 'watchanswer0123456789abcd'].join('_');

test('a question on a GitHub issue: a stranger is ignored, a collaborator answers', { timeout: 400_000 }, async () => {
  const env = await testEnv();
  const definition = await loadAgentDefinitionOrThrow(PROJECT_ROOT);
  const server = await startFakeGitHubServer({ token: TOKEN });
  server.addIssue({
    number: 1,
    title: 'sum() subtracts instead of adding',
    body: '`sum(2, 3)` returns `-1`; it should return `5`. The test in `test/sum.test.js` fails.',
    labels: ['agent', 'bug'],
  });
  const { repoPath } = await createSampleRepo({ issue: 1 });
  const remote = await realpath(await mkdtemp(join(tmpdir(), 'watch-remote-')));
  await execa('git', ['init', '--quiet', '--bare', '--initial-branch=main', remote]);
  await execa('git', ['-C', repoPath, 'remote', 'add', 'origin', remote]);
  await execa('git', ['-C', repoPath, 'push', '--quiet', 'origin', 'main']);

  const model = await createModelServer({ session: askingSession() });
  const taskQueue = `watch-answer-${Date.now()}`;
  const worker = await githubRunWorker({ modelUrl: model.url, githubUrl: server.url, token: TOKEN, taskQueue });
  const repoId = `watch-answer-${Date.now()}`;
  const runId = `${repoId}/${definition.name}/issue-1`;
  const input: WatchInput = {
    agentName: definition.name,
    agentDir: PROJECT_ROOT,
    repoPath,
    issueSource: 'github',
    repoId,
    artifactsDir: await mkdtemp(join(tmpdir(), 'watch-artifacts-')),
    delivery: 'pr',
    label: 'agent',
    mention: '@issue-agent',
    concurrency: 1,
    pollIntervalMs: 500,
  };
  const issue = () => server.issue(1)!;
  try {
    await worker.runUntil(async () => {
      const watcher = await env.client.workflow.start(runWatchWorkflow, {
        taskQueue,
        workflowId: `${repoId}/watch`,
        args: [input],
      });
      const question = await until('the question on the issue', () =>
        issue().comments.find((c) => c.body.includes(QUESTION)),
      );
      assert.match(question.body, /A question before the agent goes on/);
      assert.match(question.body, /Answer in a comment on this issue/);
      assert.match(question.body, /1\. add\n2\. subtract/);
      await until('the waiting label', () => (issue().labels.includes('agent:waiting') ? true : undefined));
      const run = env.client.workflow.getHandle<typeof runAgentWorkflow>(runId);

      server.addComment(1, { body: 'subtract, obviously', user: 'mallory', association: 'NONE' });
      await sleep(3000);
      const still = await run.query(progressQuery);
      assert.equal(still.phase, 'waiting-for-answer', 'a stranger does not answer');

      server.addComment(1, { body: ANSWER, user: 'alice', association: 'COLLABORATOR' });
      const result = await run.result();
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
    await model.close();
    await server.close();
  }
});
