/**
 * Comment commands through the watcher, on the real Temporal dev server with the GitHub
 * stand-in: while a run is live (its model answers slowly), `@issue-agent status` from an
 * owner gets a reply with the run's phase, a stranger's `@issue-agent cancel` does
 * nothing, and a collaborator's `@issue-agent cancel` ends the run cancelled (its
 * progress comment says so) with a reply; `stop` ends the watcher.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadAgentDefinitionOrThrow } from '../../../src/definition/load/load-agent-definition.js';
import { createModelServer } from '../../../src/dev/model-server/model-server.js';
import { createSampleRepo } from '../../../src/dev/sample-repo.js';
import { PROJECT_ROOT } from '../../../src/host/project-root.js';
import type { WatchInput } from '../../../src/contracts/watch.js';
import { runWatchWorkflow } from '../../../src/workflows/watch/run-watch.js';
import { githubRunWorker } from './github-run-worker.js';
import { startFakeGitHubServer } from '../../helpers/fake-github-server.js';
import { until as untilAt } from '../../helpers/until.js';
import { teardownEnv, testEnv } from '../../helpers/temporal-env.js';

after(teardownEnv);

const TOKEN = ['ghp', 'watchcommands0123456789'].join('_');

test('status and cancel by comment; a stranger cannot cancel', { timeout: 300_000 }, async () => {
  const env = await testEnv();
  const definition = await loadAgentDefinitionOrThrow(PROJECT_ROOT);
  const server = await startFakeGitHubServer({ token: TOKEN });
  server.addIssue({ number: 2, title: 'slow one', body: 'take your time', labels: ['agent'] });
  const { repoPath } = await createSampleRepo({ issue: 1 });
  const model = await createModelServer({
    session: {
      name: 'slow',
      model: 'claude-sonnet-4-6',
      rules: [{ id: 'slow', when: { promptContains: 'Step' }, respond: { text: 'thinking…', delayMs: 60_000 } }],
    },
  });
  const taskQueue = `watch-cmd-${Date.now()}`;
  const worker = await githubRunWorker({ modelUrl: model.url, githubUrl: server.url, token: TOKEN, taskQueue });
  const repoId = `watch-cmd-${Date.now()}`;
  const runId = `${repoId}/${definition.name}/issue-2`;
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
  const issue = () => server.issue(2)!;
  try {
    await worker.runUntil(async () => {
      const watcher = await env.client.workflow.start(runWatchWorkflow, {
        taskQueue,
        workflowId: `${repoId}/watch`,
        args: [input],
      });
      await until('the progress comment', () =>
        issue().comments.some((c) => c.body.includes('issue-agent:progress')) ? true : undefined,
      );

      const status = server.addComment(2, { body: '@issue-agent status', user: 'owner1', association: 'OWNER' });
      const statusReply = await until('the status reply', () =>
        issue().comments.find((c) => c.body.includes(`reply ${status.id}-status`)),
      );
      assert.match(statusReply.body, /@owner1 status of .*issue-2: flow/);

      server.addComment(2, { body: '@issue-agent cancel', user: 'mallory', association: 'CONTRIBUTOR' });
      await sleep(2500);
      const handle = env.client.workflow.getHandle(runId);
      assert.equal((await handle.describe()).status.name, 'RUNNING', "a stranger's cancel does nothing");

      const cancel = server.addComment(2, { body: '@issue-agent cancel', user: 'collab', association: 'COLLABORATOR' });
      await until('the run to end', async () =>
        (await handle.describe()).status.name === 'RUNNING' ? undefined : true,
      );
      // The comment sends our cancel signal alone: the run still ends CANCELLED, like the UI's Cancel.
      assert.equal((await handle.describe()).status.name, 'CANCELLED', 'one outcome for a cancel');
      const progress = issue().comments.find((c) => c.body.includes('issue-agent:progress'))!;
      assert.match(progress.body, /Outcome: cancelled/);
      assert.match(progress.body, /collab/, 'the reason names who cancelled');
      await until('the cancel reply', () => issue().comments.find((c) => c.body.includes(`reply ${cancel.id}-cancel`)));
      assert.equal(issue().comments.filter((c) => c.body.includes('issue-agent:progress')).length, 1);

      await watcher.signal('stop');
      const end = await watcher.result();
      assert.equal(end.stopping, true);
    });
  } finally {
    await model.close();
    await server.close();
  }
});

function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  return untilAt(what, probe, 120_000);
}
