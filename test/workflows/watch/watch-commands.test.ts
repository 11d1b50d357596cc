/**
 * Comment commands through the watcher, on the real Temporal dev server with the GitHub
 * stand-in: while a run is live (its model answers slowly), a stranger's `@issue-agent
 * cancel` does nothing (the watcher read it and acted on what came after it, and the run
 * received no signal), `@issue-agent status` from an owner gets a reply with the run's
 * phase, and a collaborator's `@issue-agent cancel` ends the run cancelled (its progress
 * comment says so) with a reply; `stop` ends the watcher.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { githubWatchScenario, signalsReceived, watcherCaughtUp } from './github-watch-scenario.js';
import { until as untilAt } from '../../helpers/until.js';
import { teardownEnv, testEnv } from '../../helpers/temporal-env.js';

after(teardownEnv);

const TOKEN = ['ghp', 'watchcommands0123456789'].join('_');

test('status and cancel by comment; a stranger cannot cancel', { timeout: 300_000 }, async () => {
  const env = await testEnv();
  const s = await githubWatchScenario({
    name: 'watch-cmd',
    token: TOKEN,
    session: {
      name: 'slow',
      model: 'claude-sonnet-4-6',
      rules: [{ id: 'slow', when: { promptContains: 'Step' }, respond: { text: 'thinking…', delayMs: 60_000 } }],
    },
  });
  const { server, worker, runId, issue } = s;
  try {
    await worker.runUntil(async () => {
      const watcher = await s.startWatcher();
      await until('the progress comment', () =>
        issue().comments.some((c) => c.body.includes('issue-agent:progress')) ? true : undefined,
      );
      const handle = env.client.workflow.getHandle(runId);

      const stranger = server.addComment(1, {
        body: '@issue-agent cancel',
        user: 'mallory',
        association: 'CONTRIBUTOR',
      });
      const status = server.addComment(1, { body: '@issue-agent status', user: 'owner1', association: 'OWNER' });
      const statusReply = await until('the status reply', () =>
        issue().comments.find((c) => c.body.includes(`reply ${status.id}-status`)),
      );
      assert.match(statusReply.body, /@owner1 status of .*issue-1: flow/);
      // The stranger's cancel came first: by the status reply it was read, and by the
      // watcher's next polls anything it would have sent is in the run's history.
      await watcherCaughtUp(watcher);
      assert.equal((await handle.describe()).status.name, 'RUNNING', "a stranger's cancel does nothing");
      assert.ok(!(await signalsReceived(handle)).includes('cancel'), "no signal from a stranger's cancel");
      assert.equal(issue().comments.filter((c) => c.body.includes(`reply ${stranger.id}-`)).length, 0);

      const cancel = server.addComment(1, { body: '@issue-agent cancel', user: 'collab', association: 'COLLABORATOR' });
      await until('the run to end', async () =>
        (await handle.describe()).status.name === 'RUNNING' ? undefined : true,
      );
      // The comment sends our cancel signal alone: the run still ends CANCELLED, like the UI's Cancel.
      assert.equal((await handle.describe()).status.name, 'CANCELLED', 'one outcome for a cancel');
      assert.ok(
        (await signalsReceived(handle)).includes('cancel'),
        "the collaborator's cancel is a signal in the history",
      );
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
    await s.close();
  }
});

function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  return untilAt(what, probe, 120_000);
}
